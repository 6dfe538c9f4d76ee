import Foundation
import TripHistoryDomain

@testable import TripHistoryAPI

// libFuzzer target: the CSV writer of exports. A trip whose text fields (product, city, zone, addresses)
// are cut from the input is written as one record, which an RFC 4180 reader must split back into exactly the
// header's columns: every text cell quoted and as it was, or with a leading `'` when it or a part of it after
// a separator (`,`, `;`, tab, CR, LF) starts like a formula; numbers, ids and times unquoted; no cell a
// spreadsheet would run.
private let formulaStarts: Set<UInt8> = [
    UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
]

/// Whether a spreadsheet splitting `text` on any of `,`, `;`, tab, CR or LF would find a cell that starts
/// like a formula.
private func hasFormulaSegment(_ text: [UInt8]) -> Bool {
    var segments: [ArraySlice<UInt8>] = [text[...]]
    for separator in [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, 0x0D, 0x0A] {
        segments = segments.flatMap { segment in
            // A part starts right after its separator; a tab or CR there is the start of that part.
            var parts: [ArraySlice<UInt8>] = []
            var start = segment.startIndex
            for index in segment.indices where index > segment.startIndex && segment[index - 1] == separator {
                parts.append(segment[start..<index])
                start = index
            }
            parts.append(segment[start...])
            return parts
        }
    }
    return segments.contains { $0.first.map(formulaStarts.contains) ?? false }
}

/// The fields of one RFC 4180 record ending in CRLF, or nil when `bytes` is not exactly one such record.
private func fields(ofRecord bytes: [UInt8]) -> [(text: [UInt8], quoted: Bool)]? {
    var fields: [(text: [UInt8], quoted: Bool)] = []
    var index = 0
    while true {
        var text: [UInt8] = []
        var quoted = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            quoted = true
            index += 1
            while true {
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        text.append(UInt8(ascii: "\""))
                        index += 2
                        continue
                    }
                    index += 1
                    break
                }
                text.append(bytes[index])
                index += 1
            }
        } else {
            while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "\r") {
                guard bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\n") else { return nil }
                text.append(bytes[index])
                index += 1
            }
        }
        fields.append((text, quoted))
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            continue
        }
        // The record's end: CRLF and nothing after it.
        guard bytes[index...].elementsEqual([UInt8(ascii: "\r"), UInt8(ascii: "\n")]) else { return nil }
        return fields
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Five texts separated by 0xFF bytes (never in UTF-8), each decoded as UTF-8 with repairs, as stored text is.
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0xFF, omittingEmptySubsequences: false)
    let texts = (0..<5).map { index in index < parts.count ? String(decoding: parts[index], as: UTF8.self) : "" }
    let (product, city, zone, pickupAddress, dropoffAddress) = (texts[0], texts[1], texts[2], texts[3], texts[4])
    let details = TripDetails(
        status: size % 2 == 0 ? .completed : .canceled, product: product, city: city, timeZone: zone,
        requestedAt: Date(timeIntervalSince1970: 1_700_000_000), startedAt: Date(timeIntervalSince1970: 1_700_000_060),
        completedAt: size % 2 == 0 ? Date(timeIntervalSince1970: 1_700_000_960) : nil,
        pickup: Place(latitude: 48.8566, longitude: -2.3522, address: pickupAddress),
        dropoff: Place(latitude: -33.8688, longitude: 151.2093, address: dropoffAddress),
        distanceMeters: Int64(size), durationSeconds: 900, fare: Money(amountMinor: -1, currency: CurrencyCode("EUR")!))
    var writer = CSVWriter(capacity: 256)
    writer.trip(
        Trip(
            id: TripID(Int64(size) + 1)!, riderID: RiderID(7)!, details: details,
            lifecycle: .recorded(at: Date(timeIntervalSince1970: 1_700_001_000))))
    guard let record = fields(ofRecord: writer.bytes) else {
        preconditionFailure("a trip must be written as exactly one RFC 4180 record")
    }
    precondition(record.count == CSVWriter.columns.count, "a record must have one field per column")
    let textColumns = [
        "status": details.status.rawValue, "product": product, "city": city, "time_zone": zone,
        "pickup_address": pickupAddress, "dropoff_address": dropoffAddress, "fare_currency": "EUR",
    ]
    for (column, field) in zip(CSVWriter.columns, record) {
        if let original = textColumns[column] {
            precondition(field.quoted, "the \(column) cell is text and must be quoted")
            let defused = hasFormulaSegment(Array(original.utf8))
            let expected = defused ? Array(("'" + original).utf8) : Array(original.utf8)
            precondition(field.text == expected, "the \(column) cell must read back as written (defused if needed)")
            precondition(
                field.text.first == UInt8(ascii: "'") || !hasFormulaSegment(field.text),
                "\(column) holds a part that starts like a formula and is not defused")
        } else {
            precondition(!field.quoted, "the \(column) cell is not text and must not be quoted")
        }
        // Numbers may start with '-'; every other cell must not start like a formula.
        let numbers = [
            "pickup_lon", "pickup_lat", "dropoff_lat", "dropoff_lon", "fare_amount_minor", "fare_total_minor",
            "refunds_minor",
        ]
        if !numbers.contains(column) {
            precondition(
                field.text.first.map { !formulaStarts.contains($0) } ?? true, "\(column) starts like a formula")
        }
    }
    return 0
}
