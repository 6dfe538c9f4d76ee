import HTTPTypes

/// `Server-Timing` of a response this request computed: its database and encoding times in milliseconds.
enum ServerTimingExpectations {
    static let name = HTTPField.Name("Server-Timing")!

    static func isComputed(_ value: String?) -> Bool {
        guard let value else { return false }
        return value.wholeMatch(of: /db;dur=[0-9]+\.[0-9]{3}, encode;dur=[0-9]+\.[0-9]{3}/) != nil
    }
}
