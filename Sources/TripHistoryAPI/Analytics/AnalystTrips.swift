public import Foundation
public import HTTPTypes
public import Logging
import NIOCore
public import Tracing
public import TripHistoryDomain
public import TripHistoryPresentation

/// The analyst operations: the cross-rider trip list (`GET /v1/trips`) with its streaming CSV and NDJSON
/// exports, per-period aggregates (`GET /v1/trips/stats`) and the feed of every rider's changes
/// (`GET /v1/trips/changes`). Analysts only: riders and services get 403.
public struct AnalystTrips<Repository: AnalystTripRepository>: Sendable {
    /// What a 429 for an analyst's stats limit suggests waiting.
    static var statsRetryAfterSeconds: Int { 1 }

    private let listTrips: ListAnalystTrips<Repository>
    private let exportTrips: ExportAnalystTrips<Repository>
    private let getStats: GetTripStats<Repository>
    private let listChanges: ListAnalystTripChanges<Repository>
    private let syncTokens: SyncTokenCodec
    private let changesRetention: TimeInterval
    private let now: @Sendable () -> Date
    private let limits: AnalystQueryLimits
    private let exportLimits: ExportLimits
    private let statsSlots: ConcurrencySlots
    private let presenter: TripPresenter
    private let localeNegotiator: LocaleNegotiator
    private let tokens: AccessTokens
    private let cursors: CursorCodec
    private let tracer: (any Tracer)?

    /// `limits` must be the ones the use cases were built with, so that parsing and the use cases agree.
    /// `exportLimits` bound the exports streaming at once and their length, `statsSlots` the stats queries
    /// running at once.
    /// The changes feed refuses `since` tokens issued longer than `changesRetention` before `now()`, as the
    /// riders' feeds do. With `tracer`, each batch a traced export reads is a span under its request's span.
    public init(
        listTrips: ListAnalystTrips<Repository>, exportTrips: ExportAnalystTrips<Repository>,
        getStats: GetTripStats<Repository>, listChanges: ListAnalystTripChanges<Repository>,
        limits: AnalystQueryLimits, exportLimits: ExportLimits, statsSlots: ConcurrencySlots,
        presenter: TripPresenter, localeNegotiator: LocaleNegotiator, tokens: AccessTokens, cursors: CursorCodec,
        syncTokens: SyncTokenCodec, changesRetention: TimeInterval, tracer: (any Tracer)? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.tracer = tracer
        self.listTrips = listTrips
        self.exportTrips = exportTrips
        self.getStats = getStats
        self.listChanges = listChanges
        self.syncTokens = syncTokens
        self.changesRetention = changesRetention
        self.now = now
        self.limits = limits
        self.exportLimits = exportLimits
        self.statsSlots = statsSlots
        self.presenter = presenter
        self.localeNegotiator = localeNegotiator
        self.tokens = tokens
        self.cursors = cursors
    }

    /// `GET /v1/trips`: a page as JSON, or the whole selection streamed as NDJSON or CSV, by `Accept`.
    public func list(head: HTTPRequest, logger: Logger) async throws -> APIResponse {
        let grant = try await analyst(head)
        let format = try AnalystFormat.negotiate(
            accept: head.headerFields.value(of: .accept), offered: [.json, .ndjson, .csv]
        )
        let parameters = try AnalystListParameters.parse(QueryParameters(target: head.path ?? ""), limits: limits)
        let scope = CursorScope(analystFilter: parameters.query.filter)
        let position = try parameters.cursor.map { cursor throws(Problem) in
            try cursors.position(cursor, scope: scope)
        }
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        switch format {
        case .json:
            if parameters.resumeAfter != nil {
                throw Problem.invalidParameter("resume_after", "resume_after resumes exports; pages use cursor.")
            }
            return try await page(parameters, position: position, scope: scope, locale: locale, grant: grant)
        case .ndjson, .csv:
            if let position, position.direction != .older {
                throw Problem.invalidParameter("cursor", "An export continues from a next_cursor, not a prev_cursor.")
            }
            if parameters.count != nil {
                throw Problem.invalidParameter("count", "count applies to pages; an export sends every trip.")
            }
            return try await export(
                parameters, format: format, guardsFormulas: true, after: position?.key ?? parameters.resumeAfter,
                locale: locale,
                grant: grant, logger: logger
            )
        }
    }

    /// `GET /v1/trips/export?format=csv|ndjson`: every matching trip streamed, in the style of a rider's export;
    /// the same filter as `GET /v1/trips`, resumed with `resume_after` and `resume_requested_at`. `limit`,
    /// `cursor` and `count` belong to pages: an export with one is a 400 naming it, rather than ignoring it.
    public func export(head: HTTPRequest, logger: Logger) async throws -> APIResponse {
        let grant = try await analyst(head)
        let query = try QueryParameters(target: head.path ?? "")
        let (format, guardsFormulas) = try AnalystFormat.exportFormat(query)
        for name in ["limit", "cursor", "count"] where query[name] != nil {
            throw Problem.invalidParameter(
                name, "\(name) applies to pages; an export sends every trip and resumes with resume_after.")
        }
        let parameters = try AnalystListParameters.parse(query, limits: limits)
        let parts = try AnalystExportParts.parse(query)
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        return try await export(
            parameters, format: format, guardsFormulas: guardsFormulas, after: parameters.resumeAfter, locale: locale,
            grant: grant, logger: logger, parts: parts)
    }

    private func page(
        _ parameters: AnalystListParameters, position: PagePosition?, scope: CursorScope, locale: SupportedLocale,
        grant: AnalystGrant
    ) async throws -> APIResponse {
        let query = parameters.query
        let queryStarted = ContinuousClock.now
        let page = try await mapped {
            try await listTrips.execute(
                filter: query.filter, limit: parameters.limit, position: position, count: parameters.count,
                grant: grant
            )
        }
        let encodingStarted = ContinuousClock.now
        let pageCursors = PageCursors(page, scope: scope, codec: cursors)

        var writer = JSONWriter(capacity: 512 + page.trips.count * 1024)
        writer.listPage(page, limit: parameters.limit.value, cursors: pageCursors) { trip in
            presenter.display(for: trip, locale: locale, timeZone: query.timeZone)
        } filter: { writer in
            query.write(to: &writer)
        }

        var headers = Self.headers(contentType: AnalystFormat.json.mediaType, locale: locale)
        headers[TripHeaderNames.link] = pageCursors.link { cursor in
            let items =
                ["limit=\(parameters.limit.value)"] + query.queryItems
                + (parameters.count.map { ["count=\($0.rawValue)"] } ?? []) + ["cursor=\(cursor)"]
            return "/v1/trips?" + items.joined(separator: "&")
        }
        let body = writer.byteBuffer
        headers[ServerTiming.name] = ServerTiming.durations(
            queryStarted: queryStarted, encodingStarted: encodingStarted)
        return APIResponse(status: .ok, headers: headers, body: .bytes(body))
    }

    /// Streams every matching trip after `after` (`TripExportStream`), with the `parts` asked for; a client whose
    /// transfer was cut resumes from the last complete line.
    private func export(
        _ parameters: AnalystListParameters, format: AnalystFormat, guardsFormulas: Bool, after: TripKey?,
        locale: SupportedLocale, grant: AnalystGrant, logger: Logger, parts: AnalystExportParts = AnalystExportParts()
    ) async throws -> APIResponse {
        let slot = try exportLimits.slot(for: grant.caller)
        let timeZone = parameters.query.timeZone
        var batches = ExportBatches(
            try await mapped {
                try exportTrips.execute(
                    filter: parameters.query.filter, after: after, grant: grant, includesLedger: parts.readsLedger)
            },
            tracer: tracer)
        let first = try await mapped { try await batches.next() }
        let presenter = self.presenter
        let encoding: TripExportStream.Encoding
        switch (format, parts.readsLedger) {
        case (.csv, false):
            encoding = .csv(header: CSVWriter.columns, guardsFormulas: guardsFormulas) { csv, trip in csv.trip(trip) }
        case (.csv, true):
            encoding = .csv(header: CSVWriter.columns + parts.csvColumns, guardsFormulas: guardsFormulas) {
                csv, trip in csv.trip(trip, with: parts)
            }
        default:
            encoding = .ndjson { json, trip in
                let trip = parts.readsLedger ? parts.shaped(trip) : trip
                json.trip(
                    trip, display: presenter.display(for: trip, locale: locale, timeZone: timeZone),
                    breakdown: parts.fareBreakdown)
            }
        }
        let body = exportLimits.stream(batches: batches, first: first, slot: slot, encoding: encoding, logger: logger)
            .body
        var headers = Self.headers(contentType: format.exportContentType, locale: locale)
        if format == .csv {
            headers[.contentDisposition] = #"attachment; filename="trips.csv""#
        }
        headers[.cacheControl] = "no-store"
        return APIResponse(status: .ok, headers: headers, body: .stream(body))
    }

    /// `GET /v1/trips/stats`: trips, fares, distance and duration per day, week or month, and with `by` per
    /// city or product within each period.
    public func stats(head: HTTPRequest) async throws -> APIResponse {
        let grant = try await analyst(head)
        _ = try AnalystFormat.negotiate(accept: head.headerFields.value(of: .accept), offered: [.json])
        let parameters = try AnalystStatsParameters.parse(QueryParameters(target: head.path ?? ""), limits: limits)
        let query = TripStatsQuery(
            filter: parameters.query.filter, granularity: parameters.granularity,
            timeZone: parameters.timeZoneIdentifier, dimension: parameters.dimension
        )
        let slot: ConcurrencySlots.Slot
        switch statsSlots.acquire(for: RateLimitKey(grant.caller)) {
        case .success(let taken): slot = taken
        case .failure:
            throw Problem.tooManyRequests(
                "At most \(statsSlots.perCaller) of your stats queries may run at once; retry when one has finished.",
                retryAfterSeconds: Self.statsRetryAfterSeconds
            )
        }
        let queryStarted = ContinuousClock.now
        // The slot is held until the query has answered or failed.
        defer { withExtendedLifetime(slot) {} }
        let buckets = try await mapped { try await getStats.execute(query, grant: grant) }
        let encodingStarted = ContinuousClock.now

        var writer = JSONWriter(capacity: 512 + buckets.count * 256)
        writer.beginObject()
        writer.key("data")
        writer.beginArray()
        for bucket in buckets {
            writer.beginObject()
            writer.field("bucket_start", RFC3339.format(bucket.start))
            if let dimension = parameters.dimension, let value = bucket.dimensionValue {
                writer.key(dimension.rawValue)
                writer.string(value)
            }
            writer.field("trips", bucket.trips)
            writer.field("completed", bucket.completed)
            writer.field("canceled", bucket.canceled)
            writer.currencyTotals("total_fare_minor", bucket.fareTotals)
            writer.currencyTotals("total_tips_minor", bucket.tipTotals)
            writer.currencyTotals("total_refunds_minor", bucket.refundTotals)
            writer.field("total_distance_m", bucket.distanceMeters)
            writer.key("mean_duration_s")
            if let mean = bucket.meanDurationSeconds {
                writer.double((mean * 10).rounded() / 10)
            } else {
                writer.null()
            }
            writer.endObject()
        }
        writer.endArray()
        writer.field("group_by", parameters.granularity.rawValue)
        if let dimension = parameters.dimension {
            writer.field("by", dimension.rawValue)
        }
        writer.field("tz", parameters.timeZoneIdentifier)
        writer.key("filter")
        parameters.query.write(to: &writer)
        writer.endObject()
        var headers = Self.headers(contentType: AnalystFormat.json.mediaType, locale: nil)
        headers[.vary] = "Authorization, Accept"
        let body = writer.byteBuffer
        headers[ServerTiming.name] = ServerTiming.durations(
            queryStarted: queryStarted, encodingStarted: encodingStarted)
        return APIResponse(status: .ok, headers: headers, body: .bytes(body))
    }

    /// `GET /v1/trips/changes`: every rider's changes after the `since` token, oldest first, or without one
    /// an empty page whose `next_since` stands for now. The token rules are the riders' feeds': signed, of this
    /// feed (a rider's token is `cursor_mismatch`), and `410 sync_token_expired` past the retention.
    public func changes(head: HTTPRequest) async throws -> APIResponse {
        let grant = try await analyst(head)
        let query = try QueryParameters(target: head.path ?? "")
        try TripListParameters.rejectRepeated(["since", "limit"], in: query)
        let limit = try ChangePageLimit.parse(query["limit"])
        var position: AnalystFeedPosition?
        if let since = query["since"] {
            do {
                position = try syncTokens.decodeAnalyst(since, now: now(), retention: changesRetention)
            } catch {
                throw Problem.syncToken(error, retention: changesRetention)
            }
        }
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        let queryStarted = ContinuousClock.now
        let page = try await mapped {
            try await listChanges.execute(after: position, limit: limit.value, grant: grant)
        }
        let encodingStarted = ContinuousClock.now
        var writer = JSONWriter(capacity: 256 + page.changes.count * 1024)
        writer.changesPage(page, nextSince: syncTokens.encode(page.next, now: now())) { trip in
            presenter.display(for: trip, locale: locale, timeZone: nil)
        }
        // Only JSON is offered, so the answer varies by token and language, as a rider's feed does.
        var headers: HTTPFields = [
            .contentType: AnalystFormat.json.mediaType, .cacheControl: "private, no-cache",
            .vary: "Authorization, Accept-Language", .contentLanguage: locale.identifier,
        ]
        headers[ServerTiming.name] = ServerTiming.durations(
            queryStarted: queryStarted, encodingStarted: encodingStarted)
        return APIResponse(status: .ok, headers: headers, body: .bytes(writer.byteBuffer))
    }

    /// Authenticates the request and refuses every role but analyst, before any parameter is looked at.
    private func analyst(_ head: HTTPRequest) async throws -> AnalystGrant {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        return try Problem.enforce { () throws(TripHistoryError) in try AccessPolicy.analyze(caller: caller) }
    }

    /// Turns the analyst use cases' own failures into problems: a rule broken by a parameter is a 400 naming
    /// it (the parameters were already checked, so this is the store refusing e.g. an unknown zone), and a
    /// timed-out query is `query_timeout`.
    private func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ValidationError {
            throw Problem.invalidParameter(error.field, "\(error.field) \(error.reason).")
        } catch is AnalystQueryError {
            throw Problem.queryTimeout
        }
    }

    /// Analyst responses hold many riders' data: no shared cache may keep them, and they differ by token,
    /// representation and language.
    private static func headers(contentType: String, locale: SupportedLocale?) -> HTTPFields {
        var headers: HTTPFields = [
            .contentType: contentType,
            .cacheControl: "private, no-cache",
            .vary: "Authorization, Accept, Accept-Language",
        ]
        if let locale { headers[.contentLanguage] = locale.identifier }
        return headers
    }
}

extension JSONWriter {
    /// `"key": {"EUR": 1500, ...}`: one total per currency, in code order.
    fileprivate mutating func currencyTotals(_ key: String, _ totals: [CurrencyCode: Int64]) {
        self.key(key)
        beginObject()
        for (currency, total) in totals.sorted(by: { $0.key.code < $1.key.code }) {
            self.key(currency.code)
            int(total)
        }
        endObject()
    }
}
