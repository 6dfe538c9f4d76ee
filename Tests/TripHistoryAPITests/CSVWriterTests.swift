import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

@testable import TripHistoryAPI

/// CSV exports are opened in spreadsheets: a text cell that would run as a formula is written as text.
@Suite struct CSVWriterTests {
    static func row(city: String, dropoff: String) -> String {
        var writer = CSVWriter(capacity: 1024)
        let new = TripFixtures.newTrip(city: city, dropoffAddress: dropoff)
        writer.trip(Trip(id: TripID(7)!, riderID: new.riderID, details: new.details))
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

    @Test func ordinaryTextAndNegativeCoordinatesAreWrittenAsTheyAre() {
        let row = Self.row(city: "São Paulo", dropoff: "350 5th Ave, New York")
        // Longitude -74.006 is a number: no prefix. An address with a comma is quoted, not prefixed.
        #expect(row.contains(",40.7128,-74.006,"))
        #expect(row.contains(",\"350 5th Ave, New York\","))
        #expect(row.contains(",São Paulo,"))
        #expect(!row.contains("'"))
    }

    @Test func aCityThatLooksLikeAFormulaIsDefusedToo() {
        #expect(Self.row(city: "=1+1", dropoff: "A").contains(",\"'=1+1\","))
    }
}
