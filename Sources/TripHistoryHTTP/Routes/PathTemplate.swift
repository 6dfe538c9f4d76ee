import TripHistoryAPI

/// An OpenAPI path template (`/v1/riders/{rider_id}/trips`) split into segments once, matched against request
/// paths without splitting them.
struct PathTemplate: Sendable {
    private enum Segment: Sendable {
        case fixed([UInt8])
        case riderID
        case tripID
        case otherParameter
    }

    private let segments: [Segment]
    /// How many segments a path must have to match: one more than its slashes.
    let segmentCount: Int
    /// Which segments are fixed, the first one in the highest bit: of two templates matching the same path,
    /// the router chooses the one with the higher value, as it matches a fixed segment before a parameter.
    let precedence: UInt64

    init(_ template: String) {
        segments = template.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            switch segment {
            case "{rider_id}": .riderID
            case "{trip_id}": .tripID
            case _ where segment.hasPrefix("{"): .otherParameter
            default: .fixed(Array(segment.utf8))
            }
        }
        segmentCount = segments.count
        var precedence: UInt64 = 0
        for (position, segment) in segments.enumerated() where position < 64 {
            if case .fixed = segment { precedence |= 1 << (63 - position) }
        }
        self.precedence = precedence
    }

    /// The ids of `path` (without its query) when every segment matches: a fixed one byte for byte, a
    /// parameter any non-empty text; nil otherwise.
    func match(_ path: Substring) -> RiderReadPath? {
        let bytes = path.utf8
        var start = bytes.startIndex
        var riderID: Substring?
        var tripID: Substring?
        for position in segments.indices {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            let text = bytes[start..<end]
            switch segments[position] {
            case .fixed(let fixed):
                guard text.elementsEqual(fixed) else { return nil }
            case .riderID, .tripID, .otherParameter:
                guard !text.isEmpty else { return nil }
                if case .riderID = segments[position] { riderID = Substring(text) }
                if case .tripID = segments[position] { tripID = Substring(text) }
            }
            if position == segments.index(before: segments.endIndex) {
                guard end == bytes.endIndex else { return nil }
            } else {
                guard end != bytes.endIndex else { return nil }
                start = bytes.index(after: end)
            }
        }
        return RiderReadPath(riderID: riderID, tripID: tripID)
    }
}
