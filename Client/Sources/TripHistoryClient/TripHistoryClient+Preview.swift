import Foundation

extension TripHistoryClient {
    /// A client of canned answers, for SwiftUI previews: `PreviewTransport` with `scenario`, each answer after
    /// `latency` seconds, no network and no token. It never repeats a request, so a failing scenario shows its
    /// error at once.
    public static func preview(
        _ scenario: PreviewTransport.Scenario = .trips(count: 45), latency: TimeInterval = 0
    ) -> TripHistoryClient {
        TripHistoryClient(
            serverURL: URL(string: "https://trips.preview.invalid")!,
            transport: PreviewTransport(scenario, latency: latency), retryPolicy: .never, token: { "preview" })
    }
}
