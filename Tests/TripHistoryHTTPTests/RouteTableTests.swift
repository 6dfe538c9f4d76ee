import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// The router serves the route table (`APIOperation`) and nothing else on its paths: each operation is routed
/// (it answers with its own checks, never the router's 404), and every other method on a path gets 405 naming
/// the table's methods for it.
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
}
