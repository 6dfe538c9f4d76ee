import TripHistoryDomain

/// What an analyst export adds to each trip on request (`include`, a comma-separated list): `fare_breakdown`,
/// the receipt's lines at the ride, and `adjustments`, the ledger since (tips, refunds, corrections, oldest
/// first). Neither brings the receipt's personal parts (payment, driver, route), which stay with the rider's
/// own export and the trip's detail.
struct AnalystExportParts: Hashable {
    var fareBreakdown = false
    var adjustments = false

    /// Whether the export reads each trip's ledger (the one read that serves both parts).
    var readsLedger: Bool { fareBreakdown || adjustments }

    /// A missing `include` adds nothing; an unknown or empty item, or the parameter twice, is a 400 naming it.
    static func parse(_ query: QueryParameters) throws(Problem) -> AnalystExportParts {
        try TripListParameters.rejectRepeated(["include"], in: query)
        var parts = AnalystExportParts()
        guard let list = query["include"] else { return parts }
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            switch item {
            case "fare_breakdown": parts.fareBreakdown = true
            case "adjustments": parts.adjustments = true
            default:
                throw Problem.invalidParameter(
                    "include", "include lists fare_breakdown and adjustments, separated by commas.")
            }
        }
        return parts
    }

    /// The CSV columns after `CSVWriter.columns`, in the order of the rider export's columns of the same names.
    var csvColumns: [String] {
        (adjustments ? ["corrections_minor"] : []) + (fareBreakdown ? ["fare_breakdown"] : [])
            + (adjustments ? ["adjustments"] : [])
    }

    /// `trip` as read with its ledger, keeping only the parts asked for, so each encoder writes those alone.
    func shaped(_ trip: Trip) -> Trip {
        Trip(
            id: trip.id, riderID: trip.riderID, details: trip.details, lifecycle: trip.lifecycle,
            receipt: fareBreakdown ? TripReceipt(breakdown: trip.receipt.breakdown) : .empty,
            adjustments: adjustments ? (trip.adjustments ?? []) : nil)
    }
}
