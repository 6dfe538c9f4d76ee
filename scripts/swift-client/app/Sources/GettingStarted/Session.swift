/// What the getting-started article calls the app's own sign-in code: here a stand-in.
final class Session: Sendable {
    static let shared = Session()

    func freshToken() async throws -> String { "a rider's token" }
}
