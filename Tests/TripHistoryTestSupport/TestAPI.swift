import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryDomain
import TripHistoryHTTP
import TripHistoryPresentation

/// The HTTP API wired around any repository, the way the composition root wires it, plus token helpers.
public struct TestAPI<Repository: TripRepository>: Sendable {
    public static var secret: [UInt8] { Array("test-secret-that-is-at-least-32-bytes-long".utf8) }

    public let repository: Repository
    public let tokens: AccessTokens
    public let cursors: CursorCodec
    private let tripRoutes: TripRoutes<Repository>
    private let operationalRoutes: OperationalRoutes

    public init(repository: Repository, isReady: @escaping @Sendable () async -> Bool = { true }) async {
        self.repository = repository
        tokens = await AccessTokens(secret: Self.secret)
        cursors = CursorCodec(secret: Self.secret)
        tripRoutes = TripRoutes(
            listRiderTrips: ListRiderTrips(repository: repository), getTrip: GetTrip(repository: repository),
            recordTrip: RecordTrip(repository: repository), presenter: TripPresenter(),
            localeNegotiator: LocaleNegotiator(), tokens: tokens, cursors: cursors
        )
        operationalRoutes = OperationalRoutes(isReady: isReady, openAPIDocument: Array("openapi: 3.1.0\n".utf8))
    }

    /// Runs `body` against the router in memory.
    public func test<Value: Sendable>(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let router = buildTripHistoryRouter(tripRoutes: tripRoutes, operationalRoutes: operationalRoutes)
        return try await Application(router: router).test(.router, body)
    }

    public func riderToken(_ riderID: Int64) async throws -> String {
        try await tokens.issue(role: .rider, subject: String(riderID), timeToLive: .seconds(600))
    }

    public func analystToken() async throws -> String {
        try await tokens.issue(role: .analyst, subject: "analyst", timeToLive: .seconds(600))
    }

    public func serviceToken() async throws -> String {
        try await tokens.issue(role: .service, subject: "ingest", timeToLive: .seconds(600))
    }

    public static func bearer(_ token: String) -> HTTPFields {
        [.authorization: "Bearer \(token)"]
    }
}

/// A JSON response body, parsed for assertions.
public struct JSONBody: @unchecked Sendable {
    public let value: Any

    public init(_ buffer: ByteBuffer) throws {
        value = try JSONSerialization.jsonObject(with: Data(buffer: buffer), options: [.fragmentsAllowed])
    }

    init(empty: Void) {
        value = [String: Any]()
    }

    public var object: [String: Any] { value as? [String: Any] ?? [:] }

    /// The member at a dotted path such as `page.next_cursor`; nil when absent, NSNull when JSON null.
    public subscript(_ path: String) -> Any? {
        var current: Any? = value
        for part in path.split(separator: ".") {
            current = (current as? [String: Any])?[String(part)]
        }
        return current
    }

    public func string(_ path: String) -> String? { self[path] as? String }

    public var trips: [[String: Any]] { object["data"] as? [[String: Any]] ?? [] }
    public var tripIDs: [String] { trips.compactMap { $0["id"] as? String } }
}

extension TestResponse {
    /// The body parsed as JSON; a body that is not JSON is recorded as a test failure.
    public func json(sourceLocation: SourceLocation = #_sourceLocation) -> JSONBody {
        do {
            return try JSONBody(body)
        } catch {
            Issue.record("response body is not JSON: \(error)", sourceLocation: sourceLocation)
            return JSONBody(empty: ())
        }
    }
}
