import Foundation
public import HTTPTypes
public import NIOCore
import TripHistoryCache
import TripHistoryDomain
import TripHistoryPresentation

extension RiderTrips {
    /// `POST /v1/trips`. The role and media type are checked before `body` is read; `body` collects the
    /// request body and throws when it is over `TripRoutesLimits.maximumBodyBytes`.
    public func record(head: HTTPRequest, body: () async throws -> ByteBuffer) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        // Refuse the wrong role before reading a body it could never use.
        let grant = try Problem.enforce { () throws(TripHistoryError) in try AccessPolicy.record(caller: caller) }
        try Self.requireJSON(head)
        let bytes = try await body()
        let newTrip = try NewTripBody.decode(Array(buffer: bytes), decoder: bodyDecoder).newTrip()
        let recorded: RecordedTrip
        let recordStarted = ContinuousClock.now
        do {
            recorded = try await recordTrip.execute(
                newTrip, idempotencyKey: head.headerFields.value(of: TripHeaderNames.idempotencyKey), grant: grant
            )
        } catch {
            // The commit may have happened even though this request failed (e.g. the connection broke after it).
            cache?.invalidate(newTrip.riderID)
            throw error
        }
        // Before the response leaves: once the client sees 201, no read on this instance may miss the trip.
        cache?.invalidate(recorded.trip.riderID)
        let encodingStarted = ContinuousClock.now
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        return created(recorded, locale: locale, queryStarted: recordStarted, encodingStarted: encodingStarted)
    }

    /// `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments`, with the path's ids as sent. The role and
    /// media type are checked before `body` is read, as for `record`.
    public func adjust(
        riderID: Substring?, tripID: Substring?, head: HTTPRequest, body: () async throws -> ByteBuffer
    ) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        let grant = try Problem.enforce { () throws(TripHistoryError) in try AccessPolicy.record(caller: caller) }
        let riderID = try Self.riderID(riderID)
        guard let tripID = tripID.flatMap({ TripID($0) }) else {
            throw Problem.invalidParameter("trip_id", "trip_id must be a positive integer written in decimal.")
        }
        try Self.requireJSON(head)
        let adjustment = try AdjustmentBody.decode(Array(buffer: try await body()), decoder: bodyDecoder).adjustment()
        // The precondition is evaluated last, by the store, once everything else about the request was
        // checked. A tag this service could not have given names no version; it matches none, as 0 would.
        let expectedVersion: Int? =
            switch EntityTag.ifMatchVersion(head.headerFields[values: .ifMatch]) {
            case nil: nil
            case .some(nil): 0
            case .some(.some(let version)): version
            }
        let recorded: RecordedTrip
        let recordStarted = ContinuousClock.now
        do {
            recorded = try await recordAdjustment.execute(
                adjustment, tripID: tripID, riderID: riderID, expectedVersion: expectedVersion,
                idempotencyKey: head.headerFields.value(of: TripHeaderNames.idempotencyKey), grant: grant)
        } catch {
            cache?.invalidate(riderID)
            throw error
        }
        // Before the response leaves: once the client sees 201, no read on this instance may miss the change.
        cache?.invalidate(riderID)
        let encodingStarted = ContinuousClock.now
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        return created(recorded, locale: locale, queryStarted: recordStarted, encodingStarted: encodingStarted)
    }

    /// The 201 of a write: the trip as it now stands in detail form, its tag (whose version `If-Match`
    /// compares) and its address.
    private func created(
        _ recorded: RecordedTrip, locale: SupportedLocale, queryStarted: ContinuousClock.Instant,
        encodingStarted: ContinuousClock.Instant
    ) -> APIResponse {
        var writer = JSONWriter(capacity: 2048)
        writer.trip(recorded.trip, display: presenter.display(for: recorded.trip, locale: locale, timeZone: nil))
        let body = writer.byteBuffer
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.location] = "/v1/riders/\(recorded.trip.riderID)/trips/\(recorded.trip.id)"
        headers[.contentLanguage] = locale.identifier
        headers[.cacheControl] = "no-store"
        headers[.eTag] = EntityTag.strong(for: body, version: recorded.trip.lifecycle.version)
        if recorded.replayed { headers[TripHeaderNames.idempotentReplayed] = "true" }
        headers[ServerTiming.name] = ServerTiming.durations(
            queryStarted: queryStarted, encodingStarted: encodingStarted)
        return APIResponse(status: .created, headers: headers, body: .bytes(body))
    }

    private static func requireJSON(_ head: HTTPRequest) throws(Problem) {
        guard let contentType = head.headerFields.value(of: .contentType),
            contentType.lowercased().hasPrefix("application/json")
        else {
            throw Problem(
                status: .unsupportedMediaType, code: .unsupportedMediaType, title: "Unsupported media type",
                detail: "Send the body as application/json.", param: "Content-Type"
            )
        }
    }
}
