import Foundation
import Logging
import NIOCore
import TripHistoryAPI
import TripHistoryCache
import TripHistoryData
import TripHistoryDomain
import TripHistoryHTTP

extension ServiceConfiguration {
    /// What `serve --check-config` prints: one `setting: value` line per group of settings, as resolved from
    /// flags, environment and defaults. Secrets never appear: the signing secrets are counted, and a connection
    /// string's password is replaced by `***`.
    public var summary: [String] {
        func milliseconds(_ duration: Duration) -> String { "\(duration.wholeMilliseconds) ms" }
        func milliseconds(_ amount: TimeAmount) -> String { "\(amount.nanoseconds / 1_000_000) ms" }
        func pool(_ settings: PoolSettings) -> String {
            "\(settings.size) connections, at most \(settings.maximumWaiters) waiting"
        }
        func policy(_ policy: RateLimitPolicy) -> String { "\(policy.requestsPerSecond)/s burst \(policy.burst)" }
        var lines = [
            "listen: \(host):\(port)",
            "metrics: \(metricsAddress.map { "\($0.host):\($0.port)" } ?? "off")",
            "database: \(Self.redacted(connectionString))",
            "database reader: \(readConnectionString.map(Self.redacted) ?? "none (reads go to the writer)")",
            "require standby copy: \(requiresStandbyCopy ? "on" : "off")",
            "pools: writes \(pool(writePool)); analyst \(pool(analystPool)); \(pipelinedConnections) pipelined, "
                + "at most \(maximumQueuedReads) reads queued",
            "statement timeout: \(milliseconds(statementTimeout)) (+ \(milliseconds(queryGrace)) grace)",
        ]
        switch migrations {
        case .embedded: lines.append("migrations: built in")
        case .directory(let url): lines.append("migrations: \(url.path)")
        }
        lines.append("openapi: \(openAPIPath ?? "built in")")
        lines.append("secrets: the current one and \(previousSecrets.count) previous (values not shown)")
        if let cache {
            lines.append(
                "cache: \(cache.maximumBytes) bytes, entries live \(milliseconds(cache.timeToLive)), "
                    + "coherence \(cacheCoherence.rawValue)")
        } else {
            lines.append("cache: off")
        }
        if let rateLimits {
            lines.append(
                "rate limits: rider \(policy(rateLimits.rider)), analyst \(policy(rateLimits.analyst)), "
                    + "service \(policy(rateLimits.service)), anonymous \(policy(rateLimits.anonymous)); "
                    + "\(rateLimits.maximumBuckets) buckets")
        } else {
            lines.append("rate limits: off")
        }
        lines.append(
            "connections: at most \(connections.maximumConnections), \(connections.maximumConnectionsPerAddress) "
                + "per client address; head \(milliseconds(connections.headTimeout)), idle "
                + "\(milliseconds(connections.idleTimeout)), body deadline \(milliseconds(connections.bodyDeadline))")
        lines.append(
            "trusted proxies: \(trustedProxies.isEmpty ? "none" : trustedProxies.entries.joined(separator: ", "))")
        lines.append(
            "trusted forwarders: "
                + (trustedForwarders.isEmpty
                    ? "none"
                    : "\(trustedForwarders.addresses.entries.joined(separator: ", ")); client read from "
                        + "\(trustedForwarders.field.headerName)"))
        lines.append("cors origins: \(cors.map { $0.origins.sorted().joined(separator: ", ") } ?? "none")")
        if let identityProvider {
            lines.append(
                "identity provider: \(identityProvider.url.absoluteString), issuer \(identityProvider.tokens.issuer), "
                    + "audience \(identityProvider.tokens.audience)")
        } else {
            lines.append("identity provider: none")
        }
        lines.append(
            "analyst: windows up to \(analyst.maximumSpanDays) days, \(analyst.maximumConcurrentExports) exports at once "
                + "(\(analyst.maximumExportsPerAnalyst) per analyst), \(analyst.maximumStatsPerAnalyst) stats per analyst, "
                + "statement timeout \(milliseconds(analyst.statementTimeout))")
        lines.append(
            "lifecycle: tips within \(lifecycle.tipWindowDays) days, changes kept \(lifecycle.changesRetentionDays) days, "
                + "idempotency keys kept \(lifecycle.idempotencyRetention.components.seconds / 3600) hours, "
                + (lifecycle.tripRetention.map { "trips kept \($0.months) months before the current one" }
                    ?? "trips kept until their rider is erased"))
        lines.append("logs: \(logLevel.rawValue), \(logFormat.rawValue)")
        return lines
    }

    /// `connection` with any password replaced by `***`: the user-info password of a `postgresql://` URI, a
    /// `password` query parameter, or a `password=` keyword of a conninfo string.
    public static func redacted(_ connection: String) -> String {
        var text = connection
        if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@"),
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        {
            text.replaceSubrange(text.index(after: colon)..<at, with: "***")
        }
        // `password=value`, `password = 'quoted value'`, or `password=value` in a URI's query.
        let pattern = #"(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]+)"#
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
            return text
        }
        let range = NSRange(text.startIndex..., in: text)
        return expression.stringByReplacingMatches(in: text, range: range, withTemplate: "$1***")
    }
}
