import Foundation
import HTTPTypes
import NIOCore
import Testing
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryPresentation

@testable import TripHistoryAPI

/// The rider operations called directly, without a server: a request head in, a response value out.
@Suite struct RiderTripsTests {
    static let secret = Array("api-test-secret-that-is-at-least-32-bytes".utf8)

    struct Subject {
        let operations: RiderTrips<InMemoryTripRepository>
        let repository: InMemoryTripRepository
        let tokens: AccessTokens
    }

    static func subject(
        cache: TripResponseCache? = TripResponseCache(), fence: (any ChangeFeedFence)? = nil
    ) async -> Subject {
        let repository = InMemoryTripRepository(
            trips: TripFixtures.history(riderID: 1, count: 9) + TripFixtures.history(riderID: 2, count: 2, firstID: 50))
        let tokens = await AccessTokens(secret: secret)
        let operations = RiderTrips(
            listRiderTrips: ListRiderTrips(repository: repository), getTrip: GetTrip(repository: repository),
            recordTrip: RecordTrip(repository: repository), recordAdjustment: RecordAdjustment(repository: repository),
            listTripChanges: ListTripChanges(repository: repository), presenter: TripPresenter(),
            localeNegotiator: LocaleNegotiator(), tokens: tokens, cursors: CursorCodec(secret: secret),
            syncTokens: SyncTokenCodec(secrets: SigningSecrets(current: secret)), cache: cache, fence: fence)
        return Subject(operations: operations, repository: repository, tokens: tokens)
    }

    static func head(_ path: String, token: String?, _ extra: HTTPFields = [:]) -> HTTPRequest {
        var fields = extra
        if let token { fields[.authorization] = "Bearer \(token)" }
        return HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: path, headerFields: fields)
    }

    /// The stored response `earlyAnswer(_:path:head:)` gives, nil when it gives none or a computation.
    static func stored(
        _ operations: RiderTrips<InMemoryTripRepository>, _ read: TestRead, _ head: HTTPRequest
    ) -> StoredResponse? {
        if case .stored(let stored) = operations.earlyAnswer(to: read, head: head) { return stored }
        return nil
    }

    static func isComputed(_ answer: EarlyAnswer?) -> Bool {
        if case .computed = answer { return true }
        return false
    }

    static func json(_ response: APIResponse) throws -> [String: Any] {
        let bytes = try #require(response.bytes)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any])
    }

    @Test func aListIsParsedCheckedAndRenderedIntoOneResponseValue() async throws {
        let subject = await Self.subject()
        let token = try await subject.tokens.issue(role: .rider, subject: "1", timeToLive: .seconds(60))
        let response = try await subject.operations.list(
            riderID: "1", head: Self.head("/v1/riders/1/trips?limit=4&status=completed", token: token))
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "application/json")
        #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
        #expect(response.headers[HTTPField.Name("Link")!]?.contains("rel=\"next\"") == true)
        let body = try Self.json(response)
        #expect((body["data"] as? [Any])?.count == 4)
        #expect((body["filter"] as? [String: Any])?["status"] as? String == "completed")
        #expect(subject.repository.queryCount == 1)
    }

    @Test func anotherRidersTripsAreNotFoundWhetherStoredOrNot() async throws {
        let subject = await Self.subject()
        let owner = try await subject.tokens.issue(role: .rider, subject: "1", timeToLive: .seconds(60))
        let other = try await subject.tokens.issue(role: .rider, subject: "2", timeToLive: .seconds(60))
        _ = try await subject.operations.list(riderID: "1", head: Self.head("/v1/riders/1/trips", token: owner))
        // Warm for rider 1 now; rider 2 (whose token is verified too) gets neither the stored answer nor a
        // computation: access is decided before either.
        _ = try? await subject.operations.list(riderID: "2", head: Self.head("/v1/riders/2/trips", token: other))
        #expect(
            Self.stored(subject.operations, .list(riderID: "1"), Self.head("/v1/riders/1/trips", token: owner)) != nil)
        #expect(
            subject.operations.earlyAnswer(to: .list(riderID: "1"), head: Self.head("/v1/riders/1/trips", token: other))
                == nil)
        #expect(
            subject.operations.earlyAnswer(
                to: .detail(riderID: "1", tripID: "3"), head: Self.head("/v1/riders/1/trips/3", token: other)) == nil)
        await #expect(throws: Problem.notFound) {
            _ = try await subject.operations.list(riderID: "1", head: Self.head("/v1/riders/1/trips", token: other))
        }
        await #expect(throws: Problem.notFound) {
            _ = try await subject.operations.detail(
                riderID: "1", tripID: "3", head: Self.head("/v1/riders/1/trips/3", token: other))
        }
    }

    @Test func anEarlyAnswerIsStoredForAWarmHitComputedForACheckedMissAndNoneOtherwise() async throws {
        let subject = await Self.subject()
        let token = try await subject.tokens.issue(role: .rider, subject: "1", timeToLive: .seconds(60))
        let path = "/v1/riders/1/trips?limit=3"
        // A token never verified: the router verifies it (that waits).
        let list = TestRead.list(riderID: "1")
        #expect(subject.operations.earlyAnswer(to: list, head: Self.head(path, token: token)) == nil)
        let computed = try await subject.operations.list(riderID: "1", head: Self.head(path, token: token))
        let stored = try #require(Self.stored(subject.operations, list, Self.head(path, token: token)))
        #expect(stored.response.bytes == computed.bytes)
        #expect(stored.response.headers[HTTPField.Name("Server-Timing")!] == "cache;desc=hit")
        let tag = try #require(computed.headers[.eTag])
        let revalidated = try #require(
            Self.stored(subject.operations, list, Self.head(path, token: token, [.ifNoneMatch: tag])))
        #expect(revalidated.response.status == .notModified)
        #expect(revalidated.response.bytes == nil)
        #expect(subject.repository.queryCount == 1)
        // A checked read that is not stored is computed, once, by the same code as the route's.
        guard
            case .computed(_, let compute) = subject.operations.earlyAnswer(
                to: .detail(riderID: "1", tripID: "2"), head: Self.head("/v1/riders/1/trips/2", token: token))
        else {
            Issue.record("expected a computation")
            return
        }
        let detail = try await compute()
        #expect(try Self.json(detail)["id"] as? String == "2")
        #expect(subject.repository.queryCount == 2)
        // A problem in the request: the router's.
        #expect(
            subject.operations.earlyAnswer(to: list, head: Self.head("/v1/riders/1/trips?limit=0", token: token)) == nil
        )
        // Without a cache every checked read is computed.
        let uncached = await Self.subject(cache: nil)
        _ = try await uncached.operations.list(riderID: "1", head: Self.head(path, token: token))
        #expect(Self.isComputed(uncached.operations.earlyAnswer(to: list, head: Self.head(path, token: token))))
    }

    /// A read whose route is not cached is computed on every request, on both paths, even with a cache; the
    /// same read on a cached route is stored.
    @Test func aReadWhoseRouteIsNotCachedIsComputedEveryTime() async throws {
        let subject = await Self.subject()
        let token = try await subject.tokens.issue(role: .rider, subject: "1", timeToLive: .seconds(60))
        let head = Self.head("/v1/riders/1/trips?limit=3", token: token)
        let uncached = subject.operations.route(TripListRead.self, cached: false)
        let path = RiderReadPath(riderID: "1")
        let first = try await subject.operations.answer(uncached, path: path, head: head)
        let second = try await subject.operations.answer(uncached, path: path, head: head)
        #expect(first.bytes == second.bytes)
        #expect(second.headers[HTTPField.Name("Server-Timing")!]?.contains("db;dur=") == true)
        #expect(subject.repository.queryCount == 2)
        #expect(Self.isComputed(subject.operations.earlyAnswer(uncached, path: path, head: head)))
        let cached = try await subject.operations.list(riderID: "1", head: head)
        #expect(cached.bytes == first.bytes)
        #expect(Self.stored(subject.operations, .list(riderID: "1"), head) != nil)
        #expect(subject.repository.queryCount == 3)
    }

    @Test func theChangesFeedIsAnsweredBeforeTheRouterAsTheListIs() async throws {
        let subject = await Self.subject()
        let token = try await subject.tokens.issue(role: .rider, subject: "1", timeToLive: .seconds(60))
        let path = "/v1/riders/1/trips/changes?limit=5"
        let computed = try await subject.operations.changes(riderID: "1", head: Self.head(path, token: token))
        let feed = TestRead.changes(riderID: "1")
        let stored = try #require(Self.stored(subject.operations, feed, Self.head(path, token: token)))
        #expect(stored.response.bytes == computed.bytes)
        let tag = try #require(computed.headers[.eTag])
        let revalidated = try #require(
            Self.stored(subject.operations, feed, Self.head(path, token: token, [.ifNoneMatch: tag])))
        #expect(revalidated.response.status == .notModified)
        // A token the service did not sign, a repeated parameter, another rider's feed: the router's problems.
        for (read, other) in [
            (feed, "/v1/riders/1/trips/changes?since=forged"), (feed, "/v1/riders/1/trips/changes?limit=1&limit=2"),
            (TestRead.changes(riderID: "2"), "/v1/riders/2/trips/changes"),
        ] {
            #expect(subject.operations.earlyAnswer(to: read, head: Self.head(other, token: token)) == nil, "\(other)")
        }
    }

    /// A warm hit for a `since` token is served without checking the token's signature again (it was checked
    /// when the entry was computed), but a token that has no entry is checked before anything is computed:
    /// a forged one, even the signed one with a byte changed, goes to the router's problem.
    @Test func aFeedTokenIsCheckedBeforeItsReadIsComputedAndNotAgainForAWarmHit() async throws {
        let subject = await Self.subject()
        let token = try await subject.tokens.issue(role: .rider, subject: "1", timeToLive: .seconds(60))
        let start = try Self.json(
            try await subject.operations.changes(
                riderID: "1", head: Self.head("/v1/riders/1/trips/changes", token: token)))
        let since = try #require((start["page"] as? [String: Any])?["next_since"] as? String)
        let path = "/v1/riders/1/trips/changes?since=\(since)"
        let feed = TestRead.changes(riderID: "1")
        #expect(
            Self.isComputed(subject.operations.earlyAnswer(to: feed, head: Self.head(path, token: token))),
            "a cold read")
        _ = try await subject.operations.changes(riderID: "1", head: Self.head(path, token: token))
        #expect(Self.stored(subject.operations, feed, Self.head(path, token: token)) != nil, "a warm hit")
        var edited = Array(since.utf8)
        edited[edited.count / 2] = edited[edited.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let forged = "/v1/riders/1/trips/changes?since=\(String(decoding: edited, as: UTF8.self))"
        #expect(subject.operations.earlyAnswer(to: feed, head: Self.head(forged, token: token)) == nil)
        // An empty token is not the absent one, whose answer is stored (by the first read above).
        #expect(
            subject.operations.earlyAnswer(to: feed, head: Self.head("/v1/riders/1/trips/changes?since=", token: token))
                == nil)
        await #expect(throws: Problem.self) {
            _ = try await subject.operations.changes(riderID: "1", head: Self.head(forged, token: token))
        }
    }

    @Test func queryProblemsNameTheirParameter() async throws {
        let subject = await Self.subject()
        let token = try await subject.tokens.issue(role: .rider, subject: "1", timeToLive: .seconds(60))
        for (query, parameter) in [
            ("limit=0", "limit"), ("tz=Mars%2FOlympus", "tz"), ("from=%ZZ", "from"), ("status=lost", "status"),
            ("cursor=", "cursor"), ("limit=1&limit=2", "limit"),
        ] {
            await #expect {
                _ = try await subject.operations.list(
                    riderID: "1", head: Self.head("/v1/riders/1/trips?\(query)", token: token))
            } throws: { error in
                (error as? Problem)?.param == parameter && (error as? Problem)?.status == .badRequest
            }
        }
        #expect(subject.repository.queryCount == 0)
    }
}

/// The reads these tests ask for, by the paths' ids as sent.
enum TestRead {
    case list(riderID: Substring)
    case detail(riderID: Substring, tripID: Substring)
    case changes(riderID: Substring)
}

/// The reads as the server's route table serves them: cached (when there is a cache) and answered early.
extension RiderTrips {
    func list(riderID: Substring?, head: HTTPRequest) async throws -> APIResponse {
        try await answer(route(TripListRead.self), path: RiderReadPath(riderID: riderID), head: head)
    }

    func detail(riderID: Substring?, tripID: Substring?, head: HTTPRequest) async throws -> APIResponse {
        try await answer(route(TripDetailRead.self), path: RiderReadPath(riderID: riderID, tripID: tripID), head: head)
    }

    func changes(riderID: Substring?, head: HTTPRequest) async throws -> APIResponse {
        try await answer(route(TripChangesRead.self), path: RiderReadPath(riderID: riderID), head: head)
    }

    func earlyAnswer(to read: TestRead, head: HTTPRequest) -> EarlyAnswer? {
        switch read {
        case .list(let riderID):
            earlyAnswer(route(TripListRead.self), path: RiderReadPath(riderID: riderID), head: head)
        case .detail(let riderID, let tripID):
            earlyAnswer(route(TripDetailRead.self), path: RiderReadPath(riderID: riderID, tripID: tripID), head: head)
        case .changes(let riderID):
            earlyAnswer(route(TripChangesRead.self), path: RiderReadPath(riderID: riderID), head: head)
        }
    }
}
