import Crypto
public import TripHistoryDomain

extension CursorScope {
    /// The scope of the analyst list under `filter`. Free-text filters are length-prefixed so that no two
    /// filters share a text, and the `analyst` tag keeps these cursors apart from every rider list's.
    public init(analystFilter filter: AnalystTripFilter) {
        func text(_ value: String?) -> String { value.map { "\($0.utf8.count):\($0)" } ?? "-" }
        let fields = [
            "analyst",
            "from=\(Timestamp.micros(filter.from))",
            "to=\(Timestamp.micros(filter.to))",
            "status=\(filter.status?.rawValue ?? "-")",
            "city=\(text(filter.city))",
            "product=\(text(filter.product))",
            "rider=\(filter.riderID?.description ?? "-")",
        ]
        digest = Array(SHA256.hash(data: Array(fields.joined(separator: "&").utf8)).prefix(8))
    }
}

extension CursorCodec {
    /// The position of a cursor sent by a client, or the problem that explains why it cannot be used.
    func position(_ cursor: some StringProtocol, scope: CursorScope) throws(Problem) -> PagePosition {
        do {
            return try decode(cursor, scope: scope)
        } catch {
            switch error {
            case .invalid: throw Problem.invalidCursor
            case .mismatch: throw Problem.cursorMismatch
            }
        }
    }
}
