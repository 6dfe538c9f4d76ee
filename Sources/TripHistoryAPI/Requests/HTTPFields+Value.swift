public import HTTPTypes

extension HTTPFields {
    /// The value of the field `name`, as `self[name]` gives it (several fields joined with commas), without
    /// building a new string when the field appears once, as nearly every request field does: the
    /// subscript's generic join costs a metadata lookup and a copy on every request.
    public func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}
