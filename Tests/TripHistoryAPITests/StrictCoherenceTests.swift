import Foundation
import HTTPTypes
import Synchronization
import Testing
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryPresentation

@testable import TripHistoryAPI

/// Strict cache coherence: with a fence, a cached response is looked up only once the fence has passed,
/// and the cache is bypassed when it fails.
@Suite struct StrictCoherenceTests {
    /// A fence whose calls wait until the test answers them all at once.
    final class GatedFence: ChangeFeedFence {
        private let waiting = Mutex([CheckedContinuation<Bool, Never>]())

        var waitingCalls: Int { waiting.withLock { $0.count } }

        func awaitCurrent() async -> Bool {
            await withCheckedContinuation { continuation in waiting.withLock { $0.append(continuation) } }
        }

        /// Answers every waiting call with `passed`.
        func answer(_ passed: Bool) {
            let calls = waiting.withLock { calls in
                defer { calls.removeAll() }
                return calls
            }
            for call in calls { call.resume(returning: passed) }
        }
    }

    /// Set once a computation has returned.
    final class Finished: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    private static let serverTiming = HTTPField.Name("Server-Timing")!

    private static func untilWaiting(_ fence: GatedFence) async throws {
        for _ in 0..<500 where fence.waitingCalls == 0 { try await Task.sleep(for: .milliseconds(10)) }
        try #require(fence.waitingCalls == 1, "the read never called the fence")
    }

    /// Starts the early answer of `path` (a page of rider 1's trips), which must be a computation, and returns its task once it waits for
    /// the fence.
    private static func start(
        _ subject: RiderTripsTests.Subject, fence: GatedFence, path: String, token: String, finished: Finished
    ) async throws -> Task<APIResponse, any Error> {
        guard
            case .computed(_, let compute) = subject.operations.earlyAnswer(
                to: .list(riderID: "1"), head: RiderTripsTests.head(path, token: token))
        else {
            Issue.record("a strict read must be computed, never stored")
            throw CancellationError()
        }
        let task = Task {
            let response = try await compute()
            finished.set()
            return response
        }
        try await untilWaiting(fence)
        return task
    }

    @Test func aCachedPageIsLookedUpOnlyAfterTheFencePassesAndBypassedWhenItFails() async throws {
        let fence = GatedFence()
        let cache = TripResponseCache()
        let subject = await RiderTripsTests.subject(cache: cache, fence: fence)
        let token = try await subject.tokens.issue(role: .rider, subject: "1", timeToLive: .seconds(3600))
        let path = "/v1/riders/1/trips?limit=20"
        let ids = { (response: APIResponse) in
            try (RiderTripsTests.json(response)["data"] as? [[String: Any]])?
                .compactMap { $0["id"] as? String }
        }

        // The route fences too: warm the page through it.
        let warming = Task {
            try await subject.operations.list(riderID: "1", head: RiderTripsTests.head(path, token: token))
        }
        try await Self.untilWaiting(fence)
        fence.answer(true)
        let before = try await ids(warming.value)
        #expect(subject.repository.queryCount == 1)

        // Warm, yet not served before the fence passes; a write announced meanwhile is seen.
        let finished = Finished()
        let fenced = try await Self.start(subject, fence: fence, path: path, token: token, finished: finished)
        #expect(!finished.isSet)
        let recorded = try await subject.repository.record(
            TripFixtures.newTrip(requestedAt: Date(timeIntervalSince1970: 1_790_000_000)), idempotency: nil)
        cache.invalidate(recorded.trip.riderID)
        fence.answer(true)
        let after = try await ids(fenced.value)
        #expect(after?.first == recorded.trip.id.description)
        #expect(after?.count == (before?.count ?? 0) + 1)
        #expect(subject.repository.queryCount == 2)

        // Nothing announced: once the fence passes, the stored page is served.
        let hit = try await Self.start(subject, fence: fence, path: path, token: token, finished: Finished())
        fence.answer(true)
        let hitResponse = try await hit.value
        #expect(hitResponse.headers[Self.serverTiming] == "cache;desc=hit")
        #expect(try ids(hitResponse) == after)
        #expect(subject.repository.queryCount == 2)

        // The fence fails: the page is read from the repository, not the cache.
        let bypass = try await Self.start(subject, fence: fence, path: path, token: token, finished: Finished())
        fence.answer(false)
        let bypassed = try await bypass.value
        #expect(bypassed.headers[Self.serverTiming]?.hasPrefix("cache;desc=bypass") == true)
        #expect(try ids(bypassed) == after)
        #expect(subject.repository.queryCount == 3)
    }
}
