import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

@testable import TripHistoryAPI

/// CSV exports are opened in spreadsheets: every text cell is quoted, and one that would run as a formula, in
/// whole or after a separator some locale splits on, is written as text.
@Suite struct CSVWriterTests {
    static func row(city: String, dropoff: String, guardsFormulas: Bool = true) -> String {
        var writer = CSVWriter(capacity: 1024, guardsFormulas: guardsFormulas)
        let new = TripFixtures.newTrip(city: city, dropoffAddress: dropoff)
        writer.trip(
            Trip(
                id: TripID(7)!, riderID: new.riderID, details: new.details,
                lifecycle: .recorded(at: new.details.requestedAt)))
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        ("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        ("+1+2", "\"'+1+2\""), ("-2+3", "\"'-2+3\""), ("@SUM(A1)", "\"'@SUM(A1)\""),
        ("\tcmd", "\"'\tcmd\""), ("\rcmd", "\"'\rcmd\""),
    ])
    func cellsStartingLikeAFormulaAreDefused(address: String, expected: String) {
        let row = Self.row(city: "Paris", dropoff: address)
        #expect(row.contains("," + expected + ","), "\(row)")
    }

    /// A spreadsheet whose list separator is `;` (German or French Excel), a tab or a line break starts a cell
    /// after it, so a formula character there is defused as at the start.
    @Test(arguments: [
        ("x;=1+1", "\"'x;=1+1\""), ("x;+1", "\"'x;+1\""), ("x; ok;-1", "\"'x; ok;-1\""),
        ("a,@SUM(A1)", "\"'a,@SUM(A1)\""),
        ("a\t=1", "\"'a\t=1\""), ("a\n=1", "\"'a\n=1\""), ("a\r=1", "\"'a\r=1\""), ("a;\tcmd", "\"'a;\tcmd\""),
        ("a;\rcmd", "\"'a;\rcmd\""),
    ])
    func aFormulaAfterASeparatorIsDefused(address: String, expected: String) {
        let row = Self.row(city: "Paris", dropoff: address)
        #expect(row.contains("," + expected + ","), "\(row)")
    }

    @Test(arguments: ["x; =1", "a-b", "x;a=1", "350 5th Ave, New York", "1 Rue; Paris", "e-mail@host"])
    func formulaCharactersInsideASegmentAreLeftAsTheyAre(address: String) {
        let row = Self.row(city: "Paris", dropoff: address)
        #expect(row.contains(",\"" + address + "\","), "\(row)")
    }

    @Test func everyTextCellIsQuotedAndNumbersIdsAndTimesAreNot() {
        let row = Self.row(city: "São Paulo", dropoff: "350 5th Ave")
        #expect(row.hasPrefix("7,1,\"completed\",\"UberX\",\"São Paulo\",\"America/New_York\",20"), "\(row)")
        // Longitude -74.006 is a number: neither quoted nor prefixed.
        #expect(row.contains(",40.7128,-74.006,\"1 Centre St, New York, NY 10007\",40.7484,-73.9857,\"350 5th Ave\","))
        // The life after the ride closes the record: total, tips, refunds, version and the two times.
        #expect(
            row.hasSuffix(",\"USD\",1834,0,0,1,2026-03-01T21:20:00.000000Z,2026-03-01T21:20:00.000000Z\r\n"), "\(row)")
        #expect(!row.contains("'"))
        let fields = parseCSV(row).first ?? []
        #expect(fields.count == CSVWriter.columns.count)
        #expect(fields[4] == "São Paulo")
    }

    @Test func theHeaderRowIsThePlainColumnNames() {
        var writer = CSVWriter(capacity: 1024)
        writer.record(CSVWriter.columns)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == CSVWriter.columns.joined(separator: ",") + "\r\n")
    }

    /// A trip without a receipt still fills every receipt column: empty cells, and empty JSON arrays.
    @Test func aRecordWithTheReceiptHasACellPerColumnEvenWithoutOne() {
        let trip = TripFixtures.trip(id: 9, requestedAt: Date(timeIntervalSince1970: 1_772_000_000))
        var writer = CSVWriter(capacity: 1024)
        writer.tripWithReceipt(trip)
        let fields = parseCSV(String(decoding: writer.bytes, as: UTF8.self)).first ?? []
        #expect(fields.count == CSVWriter.columns.count + CSVWriter.receiptColumns.count)
        #expect(Array(fields.suffix(3)) == ["", "[]", "[]"])
        #expect(fields[CSVWriter.columns.count] == "0", "corrections_minor")
    }

    @Test func aCityThatLooksLikeAFormulaIsDefusedToo() {
        #expect(Self.row(city: "=1+1", dropoff: "A").contains(",\"'=1+1\","))
        #expect(Self.row(city: "Köln;=1+1", dropoff: "A").contains(",\"'Köln;=1+1\","))
    }

    /// The raw export (`format=csv_raw`) writes every text cell as stored: quoted, inner quotes doubled, nothing
    /// prefixed, so a machine reads back exactly what the service holds.
    @Test(arguments: ["=HYPERLINK(\"http://x\",\"y\")", "+1+2", "-2+3", "@SUM(A1)", "\tcmd", "x;=1+1", "a\n=1"])
    func aRawWriterLeavesFormulaLikeCellsUnchanged(address: String) {
        let row = Self.row(city: "=1+1", dropoff: address, guardsFormulas: false)
        #expect(!row.contains("'"), "\(row)")
        let fields = parseCSV(row).first ?? []
        #expect(fields.count == CSVWriter.columns.count)
        #expect(fields[4] == "=1+1")
        #expect(fields[14] == address)
    }
}
