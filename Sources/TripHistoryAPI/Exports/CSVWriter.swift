import TripHistoryDomain

/// Appends RFC 4180 CSV: fields separated by commas, records ended by CRLF, inner quotes of a quoted field
/// doubled. Trips are written with their stored values only (no display strings), times in RFC 3339 UTC like
/// the JSON API, so a row is machine-readable.
///
/// Every text cell (status, product, city, zone, addresses, currency) is quoted, whatever it holds, so a
/// reader that honours quotes keeps it one cell whichever list separator its locale uses (`;` in German or
/// French Excel). A text cell is also written with a leading `'` when it, or any part of it after a `,`, `;`,
/// tab, CR or LF, starts with `=`, `+`, `-`, `@`, a tab or CR (OWASP's advice against CSV injection), so a
/// spreadsheet shows it as text instead of running it as a formula. Numbers, ids and times are not text cells
/// and are written as they are, unquoted. A writer made with `guardsFormulas: false` (the raw export, for
/// machines) writes every text cell as stored, with RFC 4180 quoting only.
struct CSVWriter {
    /// The header row's column names, in the order `trip(_:)` writes them.
    static let columns = [
        "id", "rider_id", "status", "product", "city", "time_zone", "requested_at", "started_at", "completed_at",
        "pickup_lat", "pickup_lon", "pickup_address", "dropoff_lat", "dropoff_lon", "dropoff_address",
        "distance_m", "duration_s", "fare_amount_minor", "fare_currency", "fare_total_minor", "tips_minor",
        "refunds_minor", "version", "recorded_at", "updated_at",
    ]

    /// The columns a rider's export adds after `columns`: the correction total, then the receipt's parts, each
    /// empty when not recorded, and the fare breakdown and the adjustments as JSON arrays (the API's form).
    static let receiptColumns = [
        "corrections_minor", "payment_method", "payment_brand", "payment_last4", "driver_first_name",
        "vehicle_make", "vehicle_model", "vehicle_color", "vehicle_plate", "route_polyline", "fare_breakdown",
        "adjustments",
    ]

    private(set) var bytes: [UInt8]
    /// Whether text cells that start like a formula get the leading `'`.
    let guardsFormulas: Bool

    init(capacity: Int, guardsFormulas: Bool = true) {
        self.guardsFormulas = guardsFormulas
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// One record per trip; `completed_at` is empty for a canceled trip. The trip's life after the ride (its
    /// total, tips, refunds, version and times) comes last, so readers of the earlier columns read on as
    /// before. Written field by field into the buffer, since exports write hundreds of thousands of these.
    mutating func trip(_ trip: Trip) {
        tripFields(trip)
        endRecord()
    }

    /// A record of `columns` then `receiptColumns`, for a trip read with its receipt and adjustments.
    mutating func tripWithReceipt(_ trip: Trip) {
        tripFields(trip)
        comma()
        DecimalDigits.append(trip.lifecycle.totals.correctionsMinor, to: &bytes)
        let receipt = trip.receipt
        let vehicle = receipt.driver?.vehicle
        for text in [
            receipt.payment?.method.rawValue, receipt.payment?.brand, receipt.payment?.last4,
            receipt.driver?.firstName, vehicle?.make, vehicle?.model, vehicle?.color, vehicle?.plate,
            receipt.route?.polyline,
        ] {
            comma()
            if let text { appendText(text) }
        }
        var json = JSONWriter(capacity: 256)
        comma()
        jsonCell(&json) { $0.breakdown(receipt.breakdown ?? []) }
        comma()
        jsonCell(&json) { $0.adjustments(trip.adjustments ?? []) }
        endRecord()
    }

    /// A text cell holding the JSON `write` writes (a fare breakdown, a ledger), the API's form, written through
    /// `json`, which a record's cells share.
    private mutating func jsonCell(_ json: inout JSONWriter, _ write: (inout JSONWriter) -> Void) {
        json.clear()
        write(&json)
        appendText(String(decoding: json.bytes, as: UTF8.self))
    }

    /// A record of `columns` then `parts.csvColumns`, for a trip an analyst export read with its ledger: the
    /// breakdown as a JSON array (`[]` when not recorded), the ledger as one and its corrections' total.
    mutating func trip(_ trip: Trip, with parts: AnalystExportParts) {
        tripFields(trip)
        var json = JSONWriter(capacity: 256)
        if parts.adjustments {
            comma()
            DecimalDigits.append(trip.lifecycle.totals.correctionsMinor, to: &bytes)
        }
        if parts.fareBreakdown {
            comma()
            jsonCell(&json) { $0.breakdown(trip.receipt.breakdown ?? []) }
        }
        if parts.adjustments {
            comma()
            jsonCell(&json) { $0.adjustments(trip.adjustments ?? []) }
        }
        endRecord()
    }

    private mutating func endRecord() {
        bytes.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
    }

    /// The fields of `columns`, without the record's end.
    private mutating func tripFields(_ trip: Trip) {
        let d = trip.details
        DecimalDigits.append(trip.id.rawValue, to: &bytes)
        comma()
        DecimalDigits.append(trip.riderID.rawValue, to: &bytes)
        comma()
        for text in [d.status.rawValue, d.product, d.city, d.timeZone] {
            appendText(text)
            comma()
        }
        RFC3339.append(d.requestedAt, to: &bytes)
        comma()
        RFC3339.append(d.startedAt, to: &bytes)
        comma()
        if let completedAt = d.completedAt { RFC3339.append(completedAt, to: &bytes) }
        comma()
        for place in [d.pickup, d.dropoff] {
            ShortestDecimal.append(place.latitude, to: &bytes)
            comma()
            ShortestDecimal.append(place.longitude, to: &bytes)
            comma()
            appendText(place.address)
            comma()
        }
        for number in [d.distanceMeters, d.durationSeconds, d.fare.amountMinor] {
            DecimalDigits.append(number, to: &bytes)
            comma()
        }
        appendText(d.fare.currency.code)
        let lifecycle = trip.lifecycle
        for number in [trip.totalMinor, lifecycle.totals.tipsMinor, lifecycle.totals.refundsMinor] {
            comma()
            DecimalDigits.append(number, to: &bytes)
        }
        comma()
        DecimalDigits.append(Int64(lifecycle.version), to: &bytes)
        comma()
        RFC3339.append(lifecycle.recordedAt, to: &bytes)
        comma()
        RFC3339.append(lifecycle.updatedAt, to: &bytes)
    }

    /// A text cell: always quoted, and, when guarding, defused when a spreadsheet could read it, or a part of
    /// it, as a formula.
    private mutating func appendText(_ field: String) {
        let utf8 = field.utf8
        bytes.append(UInt8(ascii: "\""))
        if guardsFormulas, Self.startsLikeAFormula(utf8) { bytes.append(UInt8(ascii: "'")) }
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether the text, or any segment of it after a separator a spreadsheet may split on, starts with one of
    /// OWASP's formula characters.
    private static func startsLikeAFormula(_ utf8: String.UTF8View) -> Bool {
        var atSegmentStart = true
        for byte in utf8 {
            if atSegmentStart, formulaStarts.contains(byte) { return true }
            atSegmentStart = separators.contains(byte)
        }
        return false
    }

    /// The first bytes that make a spreadsheet treat a cell as a formula (OWASP's list).
    private static let formulaStarts: Set<UInt8> = [
        UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
    ]

    /// The bytes after which a spreadsheet may start a new cell: the list separators of common locales (`,`,
    /// `;`, tab) and line breaks.
    private static let separators: Set<UInt8> = [
        UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, 0x0D, 0x0A,
    ]

    /// Empties the buffer, keeping its capacity, to write the next chunk of a stream.
    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func comma() {
        bytes.append(UInt8(ascii: ","))
    }

    mutating func record(_ fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            append(field)
        }
        endRecord()
    }

    /// A field quoted exactly when it holds a comma, a quote, CR or LF; used for the header's column names.
    private mutating func append(_ field: String) {
        let utf8 = field.utf8
        let needsQuotes = utf8.contains { byte in
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n")
        }
        guard needsQuotes else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
