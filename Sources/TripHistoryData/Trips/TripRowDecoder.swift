import Foundation
import TripHistoryDomain

/// Turns a row selected with `TripStatements.columns` (starting at `offset`) into a trip, exactly as stored;
/// the decoder of every statement that returns trips. `detail` also reads `TripStatements.detailColumns`,
/// `withLedger` `TripStatements.ledgerColumns`.
enum TripRowDecoder {
    /// The number of `TripStatements.columns`.
    static let columnCount = 25
    /// The number of `TripStatements.columns` and `TripStatements.detailColumns`.
    static let detailColumnCount = columnCount + 11

    static func trip(_ rows: PostgresRows, row: Int, offset: Int = 0) throws(PostgresError) -> Trip {
        let fields = Fields(rows: rows, row: row, offset: offset)
        guard let id = TripID(try fields.integer(0)), let riderID = RiderID(try fields.integer(1)),
            let status = TripStatus(rawValue: try fields.text(2)), let currency = CurrencyCode(try fields.text(18))
        else { throw Fields.invalid(0) }
        let completedAt = try rows.timestampMicros(row, offset + 8).map(Timestamp.date(micros:))
        let details = TripDetails(
            status: status, product: try fields.text(3), city: try fields.text(4), timeZone: try fields.text(5),
            requestedAt: try fields.time(6), startedAt: try fields.time(7), completedAt: completedAt,
            pickup: Place(
                latitude: try fields.number(9), longitude: try fields.number(10), address: try fields.text(11)),
            dropoff: Place(
                latitude: try fields.number(12), longitude: try fields.number(13), address: try fields.text(14)),
            distanceMeters: try fields.integer(15), durationSeconds: try fields.integer(16),
            fare: Money(amountMinor: try fields.integer(17), currency: currency)
        )
        let lifecycle = TripLifecycle(
            version: Int(try fields.integer(19)), recordedAt: try fields.time(20), updatedAt: try fields.time(21),
            totals: AdjustmentTotals(
                tipsMinor: try fields.integer(22), refundsMinor: try fields.integer(23),
                correctionsMinor: try fields.integer(24))
        )
        return Trip(id: id, riderID: riderID, details: details, lifecycle: lifecycle)
    }

    /// A trip with its receipt and adjustments, from a row of `TripByID`.
    static func detail(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Trip {
        let trip = try trip(rows, row: row)
        let fields = Fields(rows: rows, row: row, offset: columnCount)
        let breakdown = try fields.optionalText(0).map { json throws(PostgresError) in try fareLines(json) }
        let payment = try fields.optionalText(1).map { method throws(PostgresError) in
            guard let method = PaymentMethod(rawValue: method) else { throw Fields.invalid(columnCount + 1) }
            return Payment(method: method, brand: try fields.optionalText(2), last4: try fields.optionalText(3))
        }
        let driver = try fields.optionalText(4).map { firstName throws(PostgresError) in
            let vehicle = try fields.optionalText(5).map { make throws(PostgresError) in
                Vehicle(
                    make: make, model: try fields.optionalText(6) ?? "", color: try fields.optionalText(7) ?? "",
                    plate: try fields.optionalText(8) ?? "")
            }
            return Driver(firstName: firstName, vehicle: vehicle)
        }
        let route = try fields.optionalText(9).map(EncodedRoute.init(stored:))
        let adjustments =
            try fields.optionalText(10).map { json throws(PostgresError) in try ledger(json, column: 10) } ?? []
        return Trip(
            id: trip.id, riderID: trip.riderID, details: trip.details, lifecycle: trip.lifecycle,
            receipt: TripReceipt(breakdown: breakdown, payment: payment, driver: driver, route: route),
            adjustments: adjustments
        )
    }

    /// A trip with its fare breakdown and adjustments and no other part of its receipt, from a row of an
    /// analyst export with its ledger.
    static func withLedger(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Trip {
        let trip = try trip(rows, row: row)
        let fields = Fields(rows: rows, row: row, offset: columnCount)
        let breakdown = try fields.optionalText(0).map { json throws(PostgresError) in try fareLines(json) }
        let adjustments =
            try fields.optionalText(1).map { json throws(PostgresError) in try ledger(json, column: 1) } ?? []
        return Trip(
            id: trip.id, riderID: trip.riderID, details: trip.details, lifecycle: trip.lifecycle,
            receipt: TripReceipt(breakdown: breakdown), adjustments: adjustments)
    }

    /// The JSON of a fare's breakdown as `InsertTripReceipt` stores it.
    static func breakdownJSON(_ lines: [FareLine]) -> String {
        "[" + lines.map { #"{"kind":"\#($0.kind.rawValue)","amount_minor":\#($0.amountMinor)}"# }.joined(separator: ",")
            + "]"
    }

    private static func fareLines(_ json: String) throws(PostgresError) -> [FareLine] {
        guard let stored = StoredJSON.objects(json) else { throw Fields.invalid(columnCount) }
        var lines: [FareLine] = []
        lines.reserveCapacity(stored.count)
        for line in stored {
            guard let kind = line.string("kind").flatMap(FareLineKind.init(rawValue:)),
                let amountMinor = line.integer("amount_minor")
            else { throw Fields.invalid(columnCount) }
            lines.append(FareLine(kind: kind, amountMinor: amountMinor))
        }
        return lines
    }

    /// The ledger's JSON array, read from the column `column` after `TripStatements.columns`.
    private static func ledger(_ json: String, column: Int) throws(PostgresError) -> [Adjustment] {
        guard let stored = StoredJSON.objects(json) else { throw Fields.invalid(columnCount + column) }
        var adjustments: [Adjustment] = []
        adjustments.reserveCapacity(stored.count)
        for entry in stored {
            guard let id = entry.integer("id").flatMap(AdjustmentID.init),
                let kind = entry.string("kind").flatMap(AdjustmentKind.init(rawValue:)),
                let amountMinor = entry.integer("amount_minor"), let reason = entry.string("reason"),
                let createdAtMicros = entry.integer("created_at_us")
            else { throw Fields.invalid(columnCount + column) }
            adjustments.append(
                Adjustment(
                    id: id, kind: kind, amountMinor: amountMinor, reason: reason,
                    createdAt: Timestamp.date(micros: createdAtMicros)))
        }
        return adjustments
    }

    /// The columns of one row from `offset` on, read by their position relative to it.
    private struct Fields {
        let rows: PostgresRows
        let row: Int
        let offset: Int

        func text(_ column: Int) throws(PostgresError) -> String {
            guard let value = try rows.string(row, offset + column) else { throw Self.invalid(offset + column) }
            return value
        }

        func optionalText(_ column: Int) throws(PostgresError) -> String? {
            try rows.string(row, offset + column)
        }

        func integer(_ column: Int) throws(PostgresError) -> Int64 {
            guard let value = try rows.int64(row, offset + column) else { throw Self.invalid(offset + column) }
            return value
        }

        func number(_ column: Int) throws(PostgresError) -> Double {
            guard let value = try rows.double(row, offset + column) else { throw Self.invalid(offset + column) }
            return value
        }

        func time(_ column: Int) throws(PostgresError) -> Date {
            guard let value = try rows.timestampMicros(row, offset + column) else {
                throw Self.invalid(offset + column)
            }
            return Timestamp.date(micros: value)
        }

        static func invalid(_ column: Int) -> PostgresError {
            PostgresError(kind: .decoding, message: "trip column \(column) has an unexpected value")
        }
    }
}
