/// A domain rule that an input broke, naming the field by its JSON path so clients can point at it.
public struct ValidationError: Error, Hashable, Sendable {
    public let field: String
    /// A short sentence about the rule, never echoing the rejected value.
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
}
