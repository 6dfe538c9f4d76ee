/// Supplies the bearer token for each request, so the app can refresh it whenever it likes.
///
/// The client asks for a token before every request and never stores, prints or logs it.
public protocol TripHistoryTokenProvider: Sendable {
    /// The token to send now (a JWT minted for the rider, without the `Bearer ` prefix).
    func token() async throws -> String
}

/// A token provider backed by a closure, for apps that keep their token elsewhere.
public struct ClosureTokenProvider: TripHistoryTokenProvider {
    private let supply: @Sendable () async throws -> String

    /// Wraps `supply`, which is called before every request.
    public init(_ supply: @escaping @Sendable () async throws -> String) {
        self.supply = supply
    }

    /// What the closure returns now.
    public func token() async throws -> String {
        try await supply()
    }
}
