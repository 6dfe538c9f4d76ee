import HTTPTypes
import Testing

@testable import TripHistoryAPI

/// The query as real clients encode it: `+` and `%20` are spaces, escapes are decoded once, and broken
/// escapes or bytes that are not UTF-8 are refused naming the parameter.
@Suite struct QueryParametersTests {
    /// The query each client writes for `city=New York`, `product=Comfort+ XL` and `from=2026-03-01T08:00:00+01:00`.
    @Test(arguments: [
        // Python requests: params={"city": "New York", ...} (urlencode with quote_plus).
        ("python requests", "city=New+York&product=Comfort%2B+XL&from=2026-03-01T08%3A00%3A00%2B01%3A00"),
        // Browsers' URLSearchParams.toString().
        ("URLSearchParams", "city=New+York&product=Comfort%2B+XL&from=2026-03-01T08%3A00%3A00%2B01%3A00"),
        // curl -G --data-urlencode 'city=New York' ... (percent-encodes the space).
        ("curl --data-urlencode", "city=New%20York&product=Comfort%2B%20XL&from=2026-03-01T08%3A00%3A00%2B01%3A00"),
        // Go url.Values{...}.Encode().
        ("Go url.Values", "city=New+York&from=2026-03-01T08%3A00%3A00%2B01%3A00&product=Comfort%2B+XL"),
    ])
    func clientsEncodings(client: String, query: String) throws {
        let parameters = try QueryParameters(decoding: query[...])
        #expect(parameters["city"] == "New York", "\(client)")
        #expect(parameters["product"] == "Comfort+ XL", "\(client)")
        #expect(parameters["from"] == "2026-03-01T08:00:00+01:00", "\(client)")
    }

    /// Swift's URLComponents leaves `+` unencoded in query items, so an offset arrives as a space; the
    /// timestamp parser reads a space before the offset as `+`.
    @Test func swiftURLComponentsLeavesPlusUnencoded() throws {
        let parameters = try QueryParameters(decoding: "city=New%20York&from=2026-03-01T08:00:00+01:00")
        #expect(parameters["city"] == "New York")
        let from = try #require(parameters["from"])
        #expect(from == "2026-03-01T08:00:00 01:00")
        let instant = try #require(RFC3339.parseTimestamp(from))
        #expect(RFC3339.format(instant) == "2026-03-01T07:00:00.000000Z")
    }

    @Test func escapesAreDecodedOnceAndUTF8Kept() throws {
        let parameters = try QueryParameters(decoding: "a=%252B&b=S%C3%A3o+Paulo&c=%e6%9d%b1%e4%ba%ac&d=&e&f=x=y")
        #expect(parameters["a"] == "%2B")
        #expect(parameters["b"] == "São Paulo")
        #expect(parameters["c"] == "東京")
        #expect(parameters["d"] == "")
        #expect(parameters["e"] == "")
        #expect(parameters["f"] == "x=y")
        #expect(parameters["missing"] == nil)
        #expect(parameters.map { String($0.name) } == ["a", "b", "c", "d", "e", "f"])
    }

    @Test(arguments: [
        ("city=%ZZ", "city"), ("city=%4", "city"), ("city=%", "city"), ("city=%C3", "city"),
        ("city=%FF%FE", "city"), ("ok=1&tz=Europe%2", "tz"), ("%ZZ=1", "query"),
    ])
    func brokenEscapesAreRefusedNamingTheParameter(query: String, parameter: String) {
        #expect {
            _ = try QueryParameters(decoding: query[...])
        } throws: { error in
            guard let problem = error as? Problem else { return false }
            return problem.status == .badRequest && problem.param == parameter
        }
    }

    /// A broken value of a parameter the API does not define is refused as `query`, without its name: the
    /// problem never carries text the client made up (markup, terminal escapes, megabytes).
    @Test(arguments: [
        "unknown=%ZZ", "%3Cscript%3Ealert(1)%3C%2Fscript%3E=%FF", "<script>=%C3", "%1B%5B31m%00%07=%",
        String(repeating: "n", count: 10_000) + "=%4", "cit=%ZZ&city=ok", "City=%FF", "city%00=%FF",
    ])
    func aBrokenValueOfAnUnknownParameterIsRefusedWithoutItsName(query: String) {
        #expect {
            _ = try QueryParameters(decoding: query[...])
        } throws: { error in
            guard let problem = error as? Problem, problem.status == .badRequest, problem.param == "query" else {
                return false
            }
            let name = query.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let decodedName = QueryParameters.decode(name[...]).map(String.init) ?? name
            return problem.detail == "A query parameter this API does not define has a value that is not valid "
                + "percent-encoded UTF-8." && !problem.detail.contains(decodedName)
        }
    }

    /// `knownNames` is every parameter a route reads, so a problem about one of them still names it.
    @Test(arguments: [
        "limit", "cursor", "from", "to", "tz", "status", "city", "product", "rider_id", "resume_after",
        "resume_requested_at", "group_by", "by",
    ])
    func aBrokenValueOfEveryParameterTheAPIDefinesNamesIt(name: String) {
        #expect(QueryParameters.knownNames.contains(name))
        // Spelled plainly, or with an escape that decodes to the same name.
        let escaped = "%" + String(name.utf8.first!, radix: 16) + name.dropFirst()
        for query in ["\(name)=%ZZ", "\(escaped)=%ZZ"] {
            #expect {
                _ = try QueryParameters(decoding: query[...])
            } throws: { error in
                (error as? Problem)?.param == name && (error as? Problem)?.detail.hasPrefix(name + " ") == true
            }
        }
    }

    @Test func theQueryOfARequestTarget() throws {
        #expect(try QueryParameters(target: "/v1/trips?city=New+York")["city"] == "New York")
        #expect(try QueryParameters(target: "/v1/trips")["city"] == nil)
        #expect(try QueryParameters(target: "/v1/trips?")["city"] == nil)
    }
}
