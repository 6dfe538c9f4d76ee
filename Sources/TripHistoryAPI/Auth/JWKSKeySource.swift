import Foundation
import JWTKit
public import Logging

/// The identity provider's signing keys, fetched from its JWKS URL and kept fresh within bounds.
///
/// `run()` fetches at once and then again when the keys' `max-age` has passed (clamped to the policy's
/// bounds), or sooner after a failed fetch; a failure keeps the keys already held. A token naming an unknown
/// `kid` may trigger a fetch too, but at most one per `unknownKeyInterval`, so a flood of made-up key ids
/// cannot make the service hammer the identity provider. At most one fetch runs at a time: a caller arriving
/// while one runs waits for it instead of starting another. The fetch itself is a closure, so tests feed
/// documents without a network.
public actor JWKSKeySource {
    /// A fetched JWKS document.
    public struct Document: Sendable {
        /// The JSON body.
        public var body: [UInt8]
        /// The `max-age` of the response's `Cache-Control`, when it has one.
        public var maxAge: Duration?

        public init(body: [UInt8], maxAge: Duration? = nil) {
            self.body = body
            self.maxAge = maxAge
        }
    }

    /// Fetches the JWKS document, throwing on any failure (transport, status, size, time).
    public typealias Fetch = @Sendable () async throws -> Document

    /// How often the keys are fetched, and how many are kept.
    public struct Policy: Sendable {
        /// How long keys are kept when the response names no `max-age`.
        public var defaultMaxAge: Duration
        /// The shortest and longest a response's `max-age` is taken to be, so a misconfigured provider can
        /// neither make every instance fetch continuously nor keep a removed key for days.
        public var maxAgeBounds: ClosedRange<Duration>
        /// The least time between two fetches caused by unknown `kid`s.
        public var unknownKeyInterval: Duration
        /// How long `run()` waits after a failed fetch before trying again.
        public var retryAfterFailure: Duration
        /// The most keys a JWKS document may list.
        public var maximumKeys: Int

        public init(
            defaultMaxAge: Duration = .seconds(3600),
            maxAgeBounds: ClosedRange<Duration> = .seconds(60)...(.seconds(86_400)),
            unknownKeyInterval: Duration = .seconds(30), retryAfterFailure: Duration = .seconds(30),
            maximumKeys: Int = 100
        ) {
            self.defaultMaxAge = defaultMaxAge
            self.maxAgeBounds = maxAgeBounds
            self.unknownKeyInterval = unknownKeyInterval
            self.retryAfterFailure = retryAfterFailure
            self.maximumKeys = maximumKeys
        }
    }

    /// What is known about a `kid`.
    enum Lookup {
        /// A key with this `kid`, in a collection holding it under that `kid`, and the algorithm it verifies.
        case key(IdentityProviderKeySet.Entry)
        /// The keys are known and none has this `kid`.
        case unknownKey
        /// No JWKS document was ever fetched; the next fetch a token may cause is `retryAfterSeconds` away.
        case unavailable(retryAfterSeconds: Int)
    }

    private let fetch: Fetch
    private let policy: Policy
    private let logger: Logger
    private let now: @Sendable () -> ContinuousClock.Instant
    private var keySet: IdentityProviderKeySet?
    /// The fetch under way, which later callers wait for.
    private var inFlight: Task<Duration, Never>?
    /// When a token's unknown `kid` last caused a fetch.
    private var lastUnknownKeyFetch: ContinuousClock.Instant?

    /// A source that fetches with `fetch` under `policy`, logging failures to `logger`; `now` is the clock
    /// of the unknown-`kid` bound.
    public init(
        policy: Policy = Policy(), logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }, fetch: @escaping Fetch
    ) {
        self.fetch = fetch
        self.policy = policy
        self.logger = logger
        self.now = now
    }

    /// Whether a JWKS document was ever fetched.
    public var hasKeys: Bool { keySet != nil }

    /// Fetches until cancelled: at once, then after the keys' `max-age`, or `retryAfterFailure` after a failure.
    public func run() async {
        while !Task.isCancelled {
            let delay = await refresh()
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
        }
    }

    /// Fetches the keys now, or waits for the fetch already under way; returns how long the result may be
    /// kept (or how long to wait before retrying a failure).
    @discardableResult
    public func refresh() async -> Duration {
        if let inFlight { return await inFlight.value }
        let task = Task { await self.fetchKeys() }
        inFlight = task
        let delay = await task.value
        inFlight = nil
        return delay
    }

    /// The key a token's `kid` names. An unknown `kid` causes a fetch when none ran for `unknownKeyInterval`
    /// (or joins one under way), then is looked up again.
    func key(for kid: String) async -> Lookup {
        if let entry = keySet?.entry(for: kid) { return .key(entry) }
        if let inFlight {
            _ = await inFlight.value
        } else {
            let current = now()
            if let last = lastUnknownKeyFetch, last.duration(to: current) < policy.unknownKeyInterval {
                return missing(at: current)
            }
            lastUnknownKeyFetch = current
            await refresh()
        }
        if let entry = keySet?.entry(for: kid) { return .key(entry) }
        return missing(at: now())
    }

    private func missing(at current: ContinuousClock.Instant) -> Lookup {
        guard keySet == nil else { return .unknownKey }
        let waited = lastUnknownKeyFetch.map { $0.duration(to: current) } ?? policy.unknownKeyInterval
        let remaining = max(policy.unknownKeyInterval - waited, .zero)
        let (seconds, attoseconds) = remaining.components
        return .unavailable(retryAfterSeconds: max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0)))
    }

    private func fetchKeys() async -> Duration {
        let document: Document
        do {
            document = try await fetch()
        } catch {
            logger.warning(
                "Cannot fetch the identity provider's JWKS; keeping the keys held",
                metadata: ["error": "\(error)", "keys.held": "\(keySet?.algorithms.count ?? 0)"])
            return policy.retryAfterFailure
        }
        do {
            let keys = try await IdentityProviderKeySet(document: document.body, maximumKeys: policy.maximumKeys)
            keySet = keys
            logger.debug("Fetched the identity provider's JWKS", metadata: ["keys": "\(keys.algorithms.count)"])
        } catch {
            logger.warning(
                "Refused the identity provider's JWKS; keeping the keys held",
                metadata: ["error": "\(error)", "keys.held": "\(keySet?.algorithms.count ?? 0)"])
            return policy.retryAfterFailure
        }
        let maxAge = document.maxAge ?? policy.defaultMaxAge
        return min(max(maxAge, policy.maxAgeBounds.lowerBound), policy.maxAgeBounds.upperBound)
    }

    /// The `max-age` of a `Cache-Control` value, nil when it names none (or a malformed one).
    public static func maxAge(cacheControl: String) -> Duration? {
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "max-age" else {
                continue
            }
            var value = Substring(parts[1].trimmingCharacters(in: .whitespaces))
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            // A value too large for Int64 is as good as forever; the bounds clamp it.
            return .seconds(Int64(value) ?? .max)
        }
        return nil
    }
}
