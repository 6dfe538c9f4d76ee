public import HTTPTypes
public import Logging
import NIOCore
public import Tracing
public import TripHistoryDomain
public import TripHistoryPresentation

/// `GET /v1/riders/{rider_id}/trips/export`: every trip of a rider, newest first, with receipts and
/// adjustments, streamed as CSV or NDJSON (GDPR Article 20). The rider reads their own; analysts anyone's.
/// It shares the analyst exports' streaming and spreadsheet-safe CSV; a rider's own export takes one of the
/// riders' export slots, an analyst's one of the analysts'.
public struct RiderExports<Repository: TripRepository>: Sendable {
    private let exportTrips: ExportRiderTrips<Repository>
    private let exportLimits: ExportLimits
    private let presenter: TripPresenter
    private let localeNegotiator: LocaleNegotiator
    private let tokens: AccessTokens
    private let tracer: (any Tracer)?

    public init(
        exportTrips: ExportRiderTrips<Repository>, exportLimits: ExportLimits, presenter: TripPresenter,
        localeNegotiator: LocaleNegotiator, tokens: AccessTokens, tracer: (any Tracer)? = nil
    ) {
        self.exportTrips = exportTrips
        self.exportLimits = exportLimits
        self.presenter = presenter
        self.localeNegotiator = localeNegotiator
        self.tokens = tokens
        self.tracer = tracer
    }

    /// The export of the path's rider, in the `format` the query names (`csv`, `csv_raw` or `ndjson`).
    public func export(riderID text: Substring?, head: HTTPRequest, logger: Logger) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        let riderID = try RiderTrips<Repository>.riderID(text)
        let (format, guardsFormulas) = try AnalystFormat.exportFormat(QueryParameters(target: head.path ?? ""))
        let grant = try RiderTrips<Repository>.grantRead(riderID: riderID, caller: caller)
        let batches = exportTrips.execute(grant, after: nil)
        let slot = try exportLimits.slot(for: caller)
        var traced = ExportBatches(batches, tracer: tracer)
        let first = try await traced.next()
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        let presenter = self.presenter
        let encoding: TripExportStream.Encoding =
            format == .csv
            ? .csv(header: CSVWriter.columns + CSVWriter.receiptColumns, guardsFormulas: guardsFormulas) { csv, trip in
                csv.tripWithReceipt(trip)
            }
            : .ndjson { json, trip in
                json.trip(trip, display: presenter.display(for: trip, locale: locale, timeZone: nil))
            }
        var headers: HTTPFields = [
            .contentType: format.exportContentType,
            .cacheControl: "no-store",
            .vary: "Authorization, Accept-Language",
            .contentLanguage: locale.identifier,
        ]
        let name = "trips-\(riderID).\(format == .csv ? "csv" : "ndjson")"
        headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        let stream = exportLimits.stream(batches: traced, first: first, slot: slot, encoding: encoding, logger: logger)
        return APIResponse(status: .ok, headers: headers, body: .stream(stream.body))
    }
}
