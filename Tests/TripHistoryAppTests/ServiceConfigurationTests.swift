import Foundation
import Logging
import NIOCore
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryCache
import TripHistoryData
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP

/// `ServiceConfiguration(settings:)`: the documented defaults, every setting reaching its field, and refusals
/// that name the setting.
@Suite struct ServiceConfigurationTests {
    static let secret = String(repeating: "s", count: 32)
    static let required = ["DATABASE_URL": "postgresql://db/trips", "TRIP_HISTORY_SECRET": secret]

    static func configuration(
        _ environment: [String: String], flags: [Setting: String] = [:]
    ) throws
        -> ServiceConfiguration
    {
        try ServiceConfiguration(
            settings: SettingsReader(flags: flags, environment: required.merging(environment) { $1 }))
    }

    @Test func theDefaultsAreTheDocumentedOnes() throws {
        let configuration = try Self.configuration([:])
        #expect(configuration.host == "127.0.0.1" && configuration.port == 8080)
        #expect(configuration.metricsAddress == MetricsAddress())
        #expect(configuration.metricsAddress?.port == 9464)
        #expect(configuration.connectionString == "postgresql://db/trips")
        #expect(configuration.readConnectionString == nil && !configuration.requiresStandbyCopy)
        #expect(configuration.writePool == PoolSettings(size: 8, maximumWaiters: 64))
        #expect(configuration.analystPool == PoolSettings(size: 2, maximumWaiters: 8))
        #expect(configuration.pipelinedConnections == 2 && configuration.maximumQueuedReads == 1024)
        #expect(configuration.statementTimeout == .seconds(5) && configuration.queryGrace == .seconds(1))
        #expect(configuration.cache?.maximumBytes == 33_554_432 && configuration.cache?.timeToLive == .seconds(30))
        #expect(configuration.cacheCoherence == .local)
        #expect(configuration.rateLimits?.rider.burst == 60 && configuration.rateLimits?.maximumBuckets == 100_000)
        #expect(configuration.trustedProxies.isEmpty && configuration.cors == nil)
        #expect(configuration.trustedForwarders == TrustedForwarders())
        #expect(configuration.trustedForwarders.isEmpty && configuration.trustedForwarders.field == .xForwardedFor)
        #expect(configuration.identityProvider == nil)
        #expect(configuration.analyst == AnalystConfiguration())
        #expect(configuration.analyst.maximumSpanDays == 400 && configuration.analyst.statementTimeout == .seconds(30))
        #expect(configuration.lifecycle.tipWindowDays == 30 && configuration.lifecycle.changesRetentionDays == 30)
        #expect(configuration.lifecycle.idempotencyRetention == .seconds(86_400))
        #expect(configuration.lifecycle.tripRetention == nil)
        #expect(configuration.logFormat == .text && configuration.logLevel == .info)
        #expect(configuration.secret == Array(Self.secret.utf8) && configuration.previousSecrets.isEmpty)
        guard case .embedded = configuration.migrations else {
            Issue.record("the built-in migrations are the default")
            return
        }
    }

    @Test func everySettingReachesItsField() throws {
        let configuration = try Self.configuration([
            "TRIP_HISTORY_HOST": "0.0.0.0", "TRIP_HISTORY_PORT": "9000", "TRIP_HISTORY_METRICS_HOST": "10.0.0.1",
            "TRIP_HISTORY_METRICS_PORT": "9999", "DATABASE_READ_URL": "postgresql://replica/trips",
            "TRIP_HISTORY_REQUIRE_STANDBY_COPY": "on", "TRIP_HISTORY_DB_POOL_SIZE": "3",
            "TRIP_HISTORY_DB_POOL_MAX_WAITERS": "4", "TRIP_HISTORY_DB_ANALYST_POOL_SIZE": "5",
            "TRIP_HISTORY_DB_ANALYST_POOL_MAX_WAITERS": "6", "TRIP_HISTORY_DB_PIPELINED_CONNECTIONS": "7",
            "TRIP_HISTORY_DB_MAX_QUEUED_READS": "8", "TRIP_HISTORY_STATEMENT_TIMEOUT_MS": "900",
            "TRIP_HISTORY_QUERY_GRACE_MS": "90", "TRIP_HISTORY_MIGRATIONS": "/srv/migrations",
            "TRIP_HISTORY_OPENAPI": "/srv/openapi.yaml",
            "TRIP_HISTORY_PREVIOUS_SECRETS": String(repeating: "p", count: 32),
            "TRIP_HISTORY_CACHE_BYTES": "1000", "TRIP_HISTORY_CACHE_TTL_SECONDS": "5",
            "TRIP_HISTORY_CACHE_COHERENCE": "strict", "TRIP_HISTORY_RATE_LIMIT_RIDER": "1/2",
            "TRIP_HISTORY_RATE_LIMIT_ANALYST": "3/4", "TRIP_HISTORY_RATE_LIMIT_SERVICE": "5/6",
            "TRIP_HISTORY_RATE_LIMIT_ANONYMOUS": "7/8", "TRIP_HISTORY_RATE_LIMIT_BUCKETS": "9",
            "TRIP_HISTORY_HEAD_TIMEOUT_MS": "11", "TRIP_HISTORY_IDLE_TIMEOUT_MS": "12",
            "TRIP_HISTORY_BODY_TIMEOUT_MS": "13", "TRIP_HISTORY_BODY_DEADLINE_MS": "14",
            "TRIP_HISTORY_WRITE_TIMEOUT_MS": "15", "TRIP_HISTORY_MIN_WRITE_RATE": "16",
            "TRIP_HISTORY_MAX_CONNECTIONS": "17", "TRIP_HISTORY_MAX_CONNECTIONS_PER_ADDRESS": "18",
            "TRIP_HISTORY_TRUSTED_PROXIES": "10.0.0.0/8", "TRIP_HISTORY_CORS_ORIGINS": "https://App.example.com",
            "TRIP_HISTORY_TRUSTED_FORWARDERS": "10.1.0.0/16, fd00::/8", "TRIP_HISTORY_FORWARDED_HEADER": "Forwarded",
            "TRIP_HISTORY_JWKS_URL": "https://idp.example.com/jwks", "TRIP_HISTORY_JWKS_ISSUER": "idp",
            "TRIP_HISTORY_JWKS_AUDIENCE": "trips", "TRIP_HISTORY_JWKS_ROLE_CLAIM": "roles",
            "TRIP_HISTORY_JWKS_RIDER_CLAIM": "uid", "TRIP_HISTORY_LOG_FORMAT": "json",
            "TRIP_HISTORY_LOG_LEVEL": "warning", "TRIP_HISTORY_ANALYST_MAX_SPAN_DAYS": "21",
            "TRIP_HISTORY_ANALYST_MAX_EXPORTS": "22", "TRIP_HISTORY_ANALYST_MAX_EXPORTS_PER_ANALYST": "23",
            "TRIP_HISTORY_ANALYST_MAX_STATS_PER_ANALYST": "24", "TRIP_HISTORY_ANALYST_STATEMENT_TIMEOUT_MS": "25",
            "TRIP_HISTORY_TIP_WINDOW_DAYS": "26", "TRIP_HISTORY_CHANGES_RETENTION_DAYS": "31",
            "TRIP_HISTORY_IDEMPOTENCY_RETENTION_HOURS": "2", "TRIP_HISTORY_RETENTION_MONTHS": "18",
        ])
        #expect(configuration.host == "0.0.0.0" && configuration.port == 9000)
        #expect(configuration.metricsAddress?.host == "10.0.0.1" && configuration.metricsAddress?.port == 9999)
        #expect(configuration.readConnectionString == "postgresql://replica/trips" && configuration.requiresStandbyCopy)
        #expect(configuration.writePool == PoolSettings(size: 3, maximumWaiters: 4))
        #expect(configuration.analystPool == PoolSettings(size: 5, maximumWaiters: 6))
        #expect(configuration.pipelinedConnections == 7 && configuration.maximumQueuedReads == 8)
        #expect(configuration.statementTimeout == .milliseconds(900) && configuration.queryGrace == .milliseconds(90))
        guard case .directory(let folder) = configuration.migrations else {
            Issue.record("TRIP_HISTORY_MIGRATIONS names a folder")
            return
        }
        #expect(folder.path == "/srv/migrations" && configuration.openAPIPath == "/srv/openapi.yaml")
        #expect(configuration.previousSecrets == [Array(String(repeating: "p", count: 32).utf8)])
        #expect(configuration.cache?.maximumBytes == 1000 && configuration.cache?.timeToLive == .seconds(5))
        #expect(configuration.cacheCoherence == .strict)
        let limits = try #require(configuration.rateLimits)
        #expect(limits.rider.burst == 2 && limits.analyst.burst == 4 && limits.service.burst == 6)
        #expect(limits.anonymous.requestsPerSecond == 7 && limits.maximumBuckets == 9)
        let connections = configuration.connections
        #expect(connections.headTimeout == .milliseconds(11) && connections.idleTimeout == .milliseconds(12))
        #expect(connections.bodyTimeout == .milliseconds(13) && connections.bodyDeadline == .milliseconds(14))
        #expect(connections.writeTimeout == .milliseconds(15) && connections.minimumWriteRate == 16)
        #expect(connections.maximumConnections == 17 && connections.maximumConnectionsPerAddress == 18)
        #expect(configuration.trustedProxies.entries == ["10.0.0.0/8"])
        #expect(configuration.trustedForwarders.addresses.entries == ["10.1.0.0/16", "fd00::/8"])
        #expect(configuration.trustedForwarders.field == .forwarded)
        #expect(configuration.cors?.origins == ["https://app.example.com"])
        let provider = try #require(configuration.identityProvider)
        #expect(provider.url.absoluteString == "https://idp.example.com/jwks" && provider.tokens.issuer == "idp")
        #expect(provider.tokens.audience == "trips" && provider.tokens.roleClaim == "roles")
        #expect(provider.tokens.riderClaim == "uid")
        #expect(configuration.logFormat == .json && configuration.logLevel == .warning)
        #expect(configuration.analyst.maximumSpanDays == 21 && configuration.analyst.maximumConcurrentExports == 22)
        #expect(
            configuration.analyst.maximumExportsPerAnalyst == 23 && configuration.analyst.maximumStatsPerAnalyst == 24)
        #expect(configuration.analyst.statementTimeout == .milliseconds(25))
        #expect(configuration.lifecycle.tipWindowDays == 26 && configuration.lifecycle.changesRetentionDays == 31)
        #expect(configuration.lifecycle.idempotencyRetention == .seconds(7200))
        #expect(configuration.lifecycle.tripRetention == TripRetention(months: 18))
    }

    @Test func switchesTurnTheirPartsOff() throws {
        let configuration = try Self.configuration(
            ["TRIP_HISTORY_CACHE": "off", "TRIP_HISTORY_METRICS": "off"], flags: [.rateLimits: "off"])
        #expect(configuration.cache == nil && configuration.metricsAddress == nil && configuration.rateLimits == nil)
    }

    @Test func aFlagWinsOverTheEnvironmentForAWholeConfiguration() throws {
        let configuration = try Self.configuration(
            ["TRIP_HISTORY_DB_POOL_SIZE": "3", "TRIP_HISTORY_PORT": "9000"], flags: [.poolSize: "5"])
        #expect(configuration.writePool.size == 5 && configuration.port == 9000)
    }

    /// The forwarders' list is apart from the PROXY protocol's: setting one leaves the other empty.
    @Test func trustedForwardersAndTrustedProxiesAreSeparateLists() throws {
        let forwarders = try Self.configuration(
            ["TRIP_HISTORY_TRUSTED_FORWARDERS": "10.0.0.0/8"], flags: [.forwardedHeader: "X-Forwarded-For"])
        #expect(forwarders.trustedForwarders.addresses.entries == ["10.0.0.0/8"])
        #expect(forwarders.trustedForwarders.field == .xForwardedFor && forwarders.trustedProxies.isEmpty)
        let proxies = try Self.configuration(["TRIP_HISTORY_TRUSTED_PROXIES": "10.0.0.0/8"])
        #expect(proxies.trustedForwarders.isEmpty && !proxies.trustedProxies.isEmpty)
    }

    @Test func missingRequiredSettingsAreNamed() throws {
        #expect(
            throws: ConfigurationError("Set TRIP_HISTORY_DATABASE_URL (or DATABASE_URL), or pass --database-url.")
        ) { try ServiceConfiguration(settings: SettingsReader(environment: ["TRIP_HISTORY_SECRET": Self.secret])) }
        #expect(throws: ConfigurationError("TRIP_HISTORY_SECRET is too short: use at least 32 bytes.")) {
            try Self.configuration(["TRIP_HISTORY_SECRET": "short"])
        }
    }

    @Test func unusableValuesAreRefusedByName() throws {
        let cases: [(String, String, String)] = [
            ("TRIP_HISTORY_LOG_LEVEL", "loud", "TRIP_HISTORY_LOG_LEVEL (--log-level)"),
            ("TRIP_HISTORY_RATE_LIMIT_RIDER", "20", "TRIP_HISTORY_RATE_LIMIT_RIDER (--rate-limit-rider)"),
            ("TRIP_HISTORY_CORS_ORIGINS", "https://app.example.com/", "TRIP_HISTORY_CORS_ORIGINS (--cors-origins)"),
            ("TRIP_HISTORY_TRUSTED_PROXIES", "proxy.internal", "TRIP_HISTORY_TRUSTED_PROXIES (--trusted-proxies)"),
            (
                "TRIP_HISTORY_TRUSTED_FORWARDERS", "lb.internal",
                "TRIP_HISTORY_TRUSTED_FORWARDERS (--trusted-forwarders)"
            ),
            ("TRIP_HISTORY_FORWARDED_HEADER", "x-real-ip", "TRIP_HISTORY_FORWARDED_HEADER (--forwarded-header)"),
            ("TRIP_HISTORY_JWKS_URL", "ftp://idp", "TRIP_HISTORY_JWKS_URL (--jwks-url)"),
            // The keys decide who may call: plain http only to this machine.
            ("TRIP_HISTORY_JWKS_URL", "http://idp.example.com/jwks", "TRIP_HISTORY_JWKS_URL (--jwks-url)"),
            ("TRIP_HISTORY_JWKS_URL", "http://127.0.0.1.example.com/jwks", "TRIP_HISTORY_JWKS_URL (--jwks-url)"),
            (
                "TRIP_HISTORY_CHANGES_RETENTION_DAYS", "7",
                "TRIP_HISTORY_CHANGES_RETENTION_DAYS (--changes-retention-days)"
            ),
            ("TRIP_HISTORY_METRICS_PORT", "70000", "TRIP_HISTORY_METRICS_PORT (--metrics-port)"),
            ("TRIP_HISTORY_RETENTION_MONTHS", "0", "TRIP_HISTORY_RETENTION_MONTHS (--retention-months)"),
        ]
        for (name, value, named) in cases {
            do {
                _ = try Self.configuration([name: value])
                Issue.record("\(name)=\(value) was accepted")
            } catch let error as ConfigurationError {
                #expect(error.description.contains(named), "\(error)")
                #expect(error.description.contains(value), "\(error)")
            }
        }
    }

    /// A JWKS URL over plain http is accepted only to a loopback address, where no one sits in between.
    @Test(arguments: ["http://127.0.0.1:8081/jwks", "http://localhost/jwks", "http://[::1]:9000/jwks"])
    func plainHTTPToALoopbackJWKSIsAccepted(url: String) throws {
        let configuration = try Self.configuration([
            "TRIP_HISTORY_JWKS_URL": url, "TRIP_HISTORY_JWKS_ISSUER": "idp", "TRIP_HISTORY_JWKS_AUDIENCE": "api",
        ])
        #expect(configuration.identityProvider?.url.absoluteString == url)
    }
}

/// `TripHistoryServer.Settings(configuration:...)`: what `serve` builds the server with comes from the
/// configuration's settings, one field each.
@Suite struct ServerSettingsTests {
    @Test func everyConfiguredLimitReachesTheServersSettings() throws {
        let configuration = try ServiceConfigurationTests.configuration([
            "TRIP_HISTORY_ANALYST_MAX_SPAN_DAYS": "45", "TRIP_HISTORY_ANALYST_MAX_EXPORTS": "5",
            "TRIP_HISTORY_ANALYST_MAX_EXPORTS_PER_ANALYST": "2", "TRIP_HISTORY_ANALYST_MAX_STATS_PER_ANALYST": "3",
            "TRIP_HISTORY_RIDER_MAX_EXPORTS": "7", "TRIP_HISTORY_TIP_WINDOW_DAYS": "9",
            "TRIP_HISTORY_CHANGES_RETENTION_DAYS": "45", "TRIP_HISTORY_CORS_ORIGINS": "https://app.example",
        ])
        let settings = try TripHistoryServer<InMemoryTripRepository, InMemoryAnalystTripRepository>.Settings(
            configuration: configuration, openAPIDocument: Array("openapi: 3.1.0\n".utf8), cache: nil,
            cacheFence: nil, isReady: { true }, isReaderUp: nil, identityProvider: nil, tracing: nil)
        #expect(settings.secret == configuration.secret)
        #expect(settings.analystLimits.maximumSpanDays == 45)
        #expect(settings.maximumConcurrentExports == 5 && settings.maximumExportsPerAnalyst == 2)
        #expect(settings.maximumStatsPerAnalyst == 3 && settings.maximumConcurrentRiderExports == 7)
        #expect(settings.adjustmentPolicy.tipWindowDays == 9 && settings.changesRetentionDays == 45)
        #expect(settings.cors != nil && settings.rateLimits?.rider.burst == configuration.rateLimits?.rider.burst)
        #expect(settings.webPages != nil && settings.tracer == nil && settings.headSampler == nil)
    }
}
