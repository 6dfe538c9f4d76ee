import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import Testing
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// The metrics scrape is served by a listener of its own on a real socket, and the API's listener does not
/// serve it.
@Suite struct MetricsListenerTests {
    static let exposition = "# TYPE trip_history_test counter\ntrip_history_test 1\n"

    @Test func theListenerServesTheScrapeOnItsOwnSocket() async throws {
        let listener = MetricsListener(exposition: { Array(Self.exposition.utf8) })
        let application = listener.application(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        try await application.test(.live) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(String(buffer: response.body) == Self.exposition)
            }
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test func theAPIsListenerDoesNotServeTheScrape() async throws {
        let api = await TestAPI(
            repository: InMemoryTripRepository(), metrics: { Array(Self.exposition.utf8) })
        try await api.testLive { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.json().string("code") == "not_found")
                #expect(!String(buffer: response.body).contains("trip_history_test"))
            }
        }
    }
}
