import HTTPTypes
import NIOCore
import Synchronization
import Testing
import TripHistoryDomain

@testable import TripHistoryAPI

/// The token buckets' arithmetic, their fields and their expiry, on a clock the test moves.
@Suite struct RateLimiterTests {
    /// A monotonic clock that moves only when told.
    final class ManualClock: Sendable {
        private let nanoseconds = Atomic<UInt64>(1_000_000_000_000)

        var now: UInt64 { nanoseconds.load(ordering: .relaxed) }

        func advance(seconds: Double) {
            nanoseconds.add(UInt64(seconds * 1e9), ordering: .relaxed)
        }

        /// Gives an older reading next, as a caller does that was descheduled between reading the clock and
        /// taking the shard's lock while another caller went ahead.
        func rewind(seconds: Double) {
            nanoseconds.subtract(UInt64(seconds * 1e9), ordering: .relaxed)
        }
    }

    private static let rider = RateLimitPolicy(name: "rider", requestsPerSecond: 20, burst: 60)!
    private static let alice = RateLimitKey.rider(RiderID(1)!)
    private static let bob = RateLimitKey.rider(RiderID(2)!)

    private static func limiter(_ clock: ManualClock, capacity: Int = 1_000, shards: Int = 16) -> RateLimiter {
        RateLimiter(capacity: capacity, shardCount: shards, sweepInterval: .seconds(10), now: { clock.now })
    }

    @Test func aFullBucketAdmitsTheBurstThenRefusesUntilARequestHasComeBack() {
        let clock = ManualClock()
        let limiter = Self.limiter(clock)
        for taken in 1...60 {
            let outcome = limiter.take(Self.alice, policy: Self.rider)
            #expect(outcome.admitted)
            #expect(outcome.remaining == 60 - taken)
            #expect(outcome.resetNanoseconds == UInt64(taken) * 50_000_000)
        }
        let refused = limiter.take(Self.alice, policy: Self.rider)
        #expect(!refused.admitted)
        #expect(refused.remaining == 0)
        #expect(refused.retryAfterNanoseconds == 50_000_000, "one request comes back every 1/20 s")
        #expect(refused.resetNanoseconds == 3_000_000_000)
        // Another caller's bucket is its own.
        #expect(limiter.take(Self.bob, policy: Self.rider).remaining == 59)

        clock.advance(seconds: 0.049)
        #expect(!limiter.take(Self.alice, policy: Self.rider).admitted, "refusals take nothing, but time has not come")
        clock.advance(seconds: 0.001)
        let back = limiter.take(Self.alice, policy: Self.rider)
        #expect(back.admitted)
        #expect(back.remaining == 0)
        clock.advance(seconds: 1)
        #expect(limiter.take(Self.alice, policy: Self.rider).remaining == 19, "20 came back in a second, one taken")
    }

    @Test func aSteadyCallerWithinItsRateIsNeverRefused() {
        let clock = ManualClock()
        let limiter = Self.limiter(clock)
        for _ in 0..<1_000 {
            #expect(limiter.take(Self.alice, policy: Self.rider).admitted)
            clock.advance(seconds: 0.05)
        }
        #expect(limiter.take(Self.alice, policy: Self.rider).remaining == 59)
    }

    @Test func aCallerBringingAnOlderClockReadingIsJudgedAtTheLatestTimeItsShardHasSeen() {
        // A million a second with a burst of 1,000: the bucket holds one millisecond of requests, so a reading
        // two milliseconds behind the last admission would look like 2,000 requests at once.
        let fast = RateLimitPolicy(name: "bench", requestsPerSecond: 1_000_000, burst: 1_000)!
        let clock = ManualClock()
        let limiter = Self.limiter(clock)
        clock.advance(seconds: 0.002)
        #expect(limiter.take(Self.alice, policy: fast).admitted)
        clock.rewind(seconds: 0.002)
        let late = limiter.take(Self.alice, policy: fast)
        #expect(late.admitted, "a caller slow to reach the lock is not refused for time it did not use")
        #expect(late.remaining == 998)
    }

    @Test func theFieldsFollowTheDraftsStructuredSyntax() {
        let clock = ManualClock()
        let limiter = Self.limiter(clock)
        #expect(Self.rider.policyField.value == #""rider";q=60;w=3"#)
        var decision = RateLimitDecision(outcome: limiter.take(Self.alice, policy: Self.rider), policy: Self.rider)
        #expect(decision.admitted)
        #expect(decision.fields.state.value == #""rider";r=59;t=1"#)
        for _ in 0..<59 { _ = limiter.take(Self.alice, policy: Self.rider) }
        decision = RateLimitDecision(outcome: limiter.take(Self.alice, policy: Self.rider), policy: Self.rider)
        #expect(!decision.admitted)
        #expect(decision.fields.state.value == #""rider";r=0;t=3"#)
        let problem = decision.problem
        #expect(problem.status == .tooManyRequests)
        #expect(problem.code == .rateLimited)
        #expect(problem.isRetryable)
        #expect(problem.retryAfterSeconds == 1, "50 ms rounds up to a whole second")
        // The fields are added once, by whoever finishes the response, as on every other response.
        #expect(problem.extraHeaders[RateLimitPolicy.stateName] == nil)
        #expect(problem.extraHeaders[RateLimitPolicy.policyName] == nil)
        let response = problem.response(requestID: "r-1")
        #expect(response.headers[.retryAfter] == "1")
        #expect(response.headers[.contentType] == "application/problem+json")
    }

    @Test func policiesWithTooManyFieldsToBuildUpFrontFormatThemTheSameWay() {
        let slow = RateLimitPolicy(name: "slow", requestsPerSecond: 0.01, burst: 1_000)!
        #expect(slow.policyField.value == #""slow";q=1000;w=100000"#)
        #expect(
            slow.stateField(remaining: 999, reset: RateLimitPolicy.wholeSeconds(100_000_000_001)).value
                == #""slow";r=999;t=101"#)
    }

    @Test(arguments: [(0.0, 1), (20, 0), (20, 1_000_001), (.infinity, 1), (.nan, 1), (2e9, 1)])
    func impossiblePoliciesAreRefused(rate: Double, burst: Int) {
        #expect(RateLimitPolicy(name: "x", requestsPerSecond: rate, burst: burst) == nil)
    }

    @Test func idleBucketsExpireOnceFullSoMemoryStaysBounded() {
        let clock = ManualClock()
        let limiter = Self.limiter(clock, shards: 1)
        for rider in 1...500 {
            _ = limiter.take(.rider(RiderID(Int64(rider))!), policy: Self.rider)
        }
        #expect(limiter.count == 500)
        // Full again after 50 ms, but kept until the shard's next sweep, ten seconds after the last.
        clock.advance(seconds: 5)
        _ = limiter.take(Self.alice, policy: Self.rider)
        #expect(limiter.count == 500)
        clock.advance(seconds: 5)
        _ = limiter.take(Self.bob, policy: Self.rider)
        #expect(limiter.count == 1, "every bucket but the one just taken from was full, so dropped")
        // Dropping a full bucket changes no answer: a returning caller starts full, as it would have.
        #expect(limiter.take(.rider(RiderID(7)!), policy: Self.rider).remaining == 59)
    }

    @Test func removeIdleDropsOnlyBucketsThatAreFull() {
        let clock = ManualClock()
        let limiter = Self.limiter(clock)
        for _ in 0..<60 { _ = limiter.take(Self.alice, policy: Self.rider) }
        _ = limiter.take(Self.bob, policy: Self.rider)
        clock.advance(seconds: 1)
        limiter.removeIdle()
        #expect(limiter.count == 1, "bob's bucket was full again after 50 ms; alice's needs 3 s")
        #expect(limiter.take(Self.alice, policy: Self.rider).remaining == 19)
    }

    @Test func theNumberOfBucketsNeverExceedsTheCapacity() {
        let clock = ManualClock()
        let counts = Mutex<[Int]>([])
        let limiter = RateLimiter(
            capacity: 64, shardCount: 4, now: { clock.now },
            onCountChange: { count in counts.withLock { $0.append(count) } })
        for rider in 1...1_000 {
            #expect(limiter.take(.rider(RiderID(Int64(rider))!), policy: Self.rider).admitted)
        }
        #expect(limiter.count <= 64)
        #expect(counts.withLock { $0.max() ?? 0 } <= 64)
        #expect(counts.withLock { $0.last } == limiter.count, "the gauge follows every change")
    }

    @Test func addressesAreCountedPerIPv4AddressAndPerIPv6Prefix() throws {
        func key(_ ip: String) throws -> RateLimitKey {
            RateLimitKey(address: try SocketAddress(ipAddress: ip, port: 1234))
        }
        #expect(try key("192.0.2.1") == key("192.0.2.1"))
        #expect(try key("192.0.2.1") != key("192.0.2.2"))
        #expect(try key("::ffff:192.0.2.1") == key("192.0.2.1"), "a dual-stack listener's view of an IPv4 client")
        #expect(try key("2001:db8:1:2::1") == key("2001:db8:1:2:ffff::9"), "one /64, one host")
        #expect(try key("2001:db8:1:2::1") != key("2001:db8:1:3::1"))
        #expect(RateLimitKey(address: nil) == RateLimitKey(address: nil))
        #expect(try key("192.0.2.1") != RateLimitKey(address: nil))
    }
}
