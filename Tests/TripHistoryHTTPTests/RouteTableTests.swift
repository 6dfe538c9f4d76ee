import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryCache
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// The router serves the route table (`APIOperation`) and nothing else on its paths: each operation is routed
/// (it answers with its own checks, never the router's 404), and every other method on a path gets 405 naming
/// the table's methods for it; each rider read is served as its entry says, by both paths alike.
@Suite struct RouteTableTests {
    /// The path of `operation` with its parameters filled in.
    private static func concrete(_ operation: APIOperation) -> String {
        operation.path.replacingOccurrences(of: "{rider_id}", with: "7").replacingOccurrences(
            of: "{trip_id}", with: "3")
    }

    @Test func everyOperationOfTheTableIsRouted() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository())
        try await api.test { client in
            for operation in APIOperation.allCases {
                try await client.execute(uri: Self.concrete(operation), method: operation.method) { response in
                    // Without a token every API operation is a 401; the probes and the document answer.
                    #expect(response.status != .notFound && response.status != .methodNotAllowed, "\(operation)")
                    if operation.path.hasPrefix("/v1/") {
                        #expect(response.status == .unauthorized, "\(operation)")
                    }
                }
            }
        }
    }

    @Test func everyOtherMethodOnATablePathGets405WithTheTablesMethods() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository())
        let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .options]
        try await api.test { client in
            for path in Set(APIOperation.allCases.map(\.path)) {
                let served = APIOperation.allCases.filter { $0.path == path }.map(\.method)
                let uri = Self.concrete(APIOperation.allCases.first { $0.path == path }!)
                for method in methods where !served.contains(method) {
                    try await client.execute(uri: uri, method: method) { response in
                        #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                        let allowed = Set(
                            (response.headers[.allow] ?? "").split(separator: ",").map {
                                $0.trimmingCharacters(in: .whitespaces)
                            })
                        #expect(allowed == Set(served.map(\.rawValue)), "\(method) \(path)")
                        #expect(response.json().string("code") == "method_not_allowed")
                    }
                }
            }
        }
    }

    /// Each rider read of the table is routed and answered as its entry says: a repeated read is a warm hit
    /// when it is cached, and when it is answered early the early-read handler answers it, computed and then
    /// (when cached) stored, with the router's bytes; otherwise the handler leaves it to the router.
    @Test(arguments: APIOperation.allCases.filter { $0.riderRead != nil })
    func everyRiderReadIsServedAsItsEntrySaysWithTheRoutersBytes(operation: APIOperation) async throws {
        let serving = try #require(operation.riderRead)
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5))
        // A fixed clock: the changes feed signs the time into its next token.
        let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_000_000) }
        let uri = Self.concrete(operation).replacingOccurrences(of: "/7/", with: "/1/")
        let byRouter = try await TestAPI(
            repository: repository,
            settings: {
                $0.cache = TripResponseCache()
                $0.now = clock
            })
        let headers = TestAPI<InMemoryTripRepository>.bearer(try await byRouter.riderToken(1))
        let routerAnswers = try await byRouter.testLive(earlyReads: false) { client in
            [
                try await client.execute(uri: uri, method: .get, headers: headers) { $0 },
                try await client.execute(uri: uri, method: .get, headers: headers) { $0 },
            ]
        }
        #expect(routerAnswers.map(\.status) == [.ok, .ok])
        #expect((routerAnswers[1].headers[Self.serverTiming] == "cache;desc=hit") == serving.contains(.cached))

        // A second API over the same store (and the same secret), so the reads above left nothing in its cache.
        let early = await TestAPI(
            repository: repository,
            settings: {
                $0.cache = TripResponseCache()
                $0.now = clock
            })
        let answers = EarlyReadHandlerTests.Answers()
        let handlerAnswers = try await early.testLive(onEarlyAnswer: answers.record) { client in
            // The router verifies the token of the first request; the early-read handler then knows it.
            _ = try await client.execute(uri: "/v1/riders/1/trips/export", method: .get, headers: headers) { $0 }
            return [
                try await client.execute(uri: uri, method: .get, headers: headers) { $0 },
                try await client.execute(uri: uri, method: .get, headers: headers) { $0 },
            ]
        }
        let answeredEarly = serving.contains(.answeredEarly)
        #expect(answers.computed == (answeredEarly ? (serving.contains(.cached) ? 1 : 2) : 0))
        #expect(answers.stored == (answeredEarly && serving.contains(.cached) ? 1 : 0))
        for (byHandler, byRouter) in zip(handlerAnswers, routerAnswers) {
            #expect(byHandler.status == byRouter.status)
            #expect(byHandler.body == byRouter.body)
            #expect(byHandler.headers[.eTag] == byRouter.headers[.eTag])
            #expect(Self.comparable(byHandler.headers) == Self.comparable(byRouter.headers))
        }
        #expect(handlerAnswers[1].headers[Self.serverTiming] == routerAnswers[1].headers[Self.serverTiming])
    }

    private static let serverTiming = HTTPField.Name("Server-Timing")!

    /// Every header but those that differ per response by design (a computation's durations among them).
    private static func comparable(_ fields: HTTPFields) -> [String] {
        let perResponse: Set<HTTPField.Name> = [.date, HTTPField.Name("X-Request-ID")!, serverTiming]
        return fields.filter { !perResponse.contains($0.name) }.map { "\($0.name.canonicalName): \($0.value)" }
    }
}
