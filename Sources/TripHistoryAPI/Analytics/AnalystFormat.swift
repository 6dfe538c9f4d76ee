/// The representations of the analyst trip list, chosen by the `Accept` header.
enum AnalystFormat: NegotiatedFormat {
    /// One page as a JSON document, with cursors.
    case json
    /// Every matching trip, one JSON object per line.
    case ndjson
    /// Every matching trip as RFC 4180 CSV with a header row.
    case csv

    var mediaType: String {
        switch self {
        case .json: return "application/json"
        case .ndjson: return "application/x-ndjson"
        case .csv: return "text/csv"
        }
    }

    var mediaTypeAliases: [String] { self == .ndjson ? ["application/ndjson"] : [] }

    /// The `Content-Type` of an export in this format: CSV says its charset and that it has a header row.
    var exportContentType: String { self == .csv ? "text/csv; charset=utf-8; header=present" : mediaType }
}

extension AnalystFormat {
    /// The export format a `format` query parameter names, the style of both exports' own routes: `csv` (text
    /// cells guarded against spreadsheet formulas), `csv_raw` (every cell as stored, for machines) or `ndjson`;
    /// anything else, none, or the parameter twice is a 400 naming it.
    static func exportFormat(_ query: QueryParameters) throws(Problem) -> (format: AnalystFormat, guardsFormulas: Bool)
    {
        try TripListParameters.rejectRepeated(["format"], in: query)
        switch query["format"] {
        case "csv": return (.csv, true)
        case "csv_raw": return (.csv, false)
        case "ndjson": return (.ndjson, true)
        default: throw Problem.invalidParameter("format", "format must be csv, csv_raw or ndjson.")
        }
    }
}
