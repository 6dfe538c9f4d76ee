import Testing
import TripHistoryDomain

@testable import TripHistoryAPI

/// `by` on `GET /v1/trips/stats`: a closed choice of the field that splits each period, absent by default,
/// refused naming `by` when it is anything else or given twice.
@Suite struct AnalystStatsParametersTests {
    private static let window = "from=2026-01-01&to=2026-02-01"

    private static func parse(_ query: String) throws(Problem) -> AnalystStatsParameters {
        try AnalystStatsParameters.parse(QueryParameters(decoding: query[...]), limits: AnalystQueryLimits())
    }

    @Test(arguments: [
        ("", nil), ("&by=city", StatsDimension.city), ("&by=product", .product),
        ("&by=product&city=Paris&group_by=month", .product),
    ])
    func aValidByIsParsed(suffix: String, dimension: StatsDimension?) throws {
        let parameters = try Self.parse(Self.window + suffix)
        #expect(parameters.dimension == dimension)
    }

    /// The filters stay filters next to `by`: grouping by product within one city keeps the city filter.
    @Test func byKeepsTheFilters() throws {
        let parameters = try Self.parse(Self.window + "&by=product&city=Paris")
        #expect(parameters.dimension == .product)
        #expect(parameters.query.filter.city == "Paris")
    }

    @Test(arguments: [
        "by=", "by=City", "by=rider_id", "by=city,product", "by=day", "by=city&by=product", "by=city&by=city",
    ])
    func anInvalidOrRepeatedByNamesIt(by: String) {
        #expect {
            _ = try Self.parse(Self.window + "&" + by)
        } throws: { error in
            let problem = error as? Problem
            return problem?.param == "by" && problem?.code == .invalidParameter
        }
    }
}
