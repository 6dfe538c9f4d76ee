import Foundation
import TripHistoryDomain

/// Turns a row selected with `TripStatements.columns` (starting at `offset`) into a trip, exactly as stored;
/// the decoder of every statement that returns trips.
enum TripRowDecoder {
    static func trip(_ rows: PostgresRows, row: Int, offset: Int = 0) throws(PostgresError) -> Trip {
        func text(_ column: Int) throws(PostgresError) -> String {
            guard let value = try rows.string(row, offset + column) else { throw invalid(column) }
            return value
        }
        func integer(_ column: Int) throws(PostgresError) -> Int64 {
            guard let value = try rows.int64(row, offset + column) else { throw invalid(column) }
            return value
        }
        func number(_ column: Int) throws(PostgresError) -> Double {
            guard let value = try rows.double(row, offset + column) else { throw invalid(column) }
            return value
        }
        func time(_ column: Int) throws(PostgresError) -> Date {
            guard let value = try rows.timestampMicros(row, offset + column) else { throw invalid(column) }
            return Timestamp.date(micros: value)
        }
        guard let id = TripID(try integer(0)), let riderID = RiderID(try integer(1)),
            let status = TripStatus(rawValue: try text(2)), let currency = CurrencyCode(try text(18))
        else { throw invalid(0) }
        let completedAt = try rows.timestampMicros(row, offset + 8).map(Timestamp.date(micros:))
        let details = TripDetails(
            status: status, product: try text(3), city: try text(4), timeZone: try text(5),
            requestedAt: try time(6), startedAt: try time(7), completedAt: completedAt,
            pickup: Place(latitude: try number(9), longitude: try number(10), address: try text(11)),
            dropoff: Place(latitude: try number(12), longitude: try number(13), address: try text(14)),
            distanceMeters: try integer(15), durationSeconds: try integer(16),
            fare: Money(amountMinor: try integer(17), currency: currency)
        )
        return Trip(id: id, riderID: riderID, details: details)
    }

    private static func invalid(_ column: Int) -> PostgresError {
        PostgresError(kind: .decoding, message: "trip column \(column) has an unexpected value")
    }
}
