import Foundation
import OpenAPIRuntime

/// Reads the service's RFC 3339 timestamps with or without fraction digits, and writes them with milliseconds.
struct FlexibleDateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    func decode(_ text: String) throws -> Date {
        guard let date = TripDates.parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Not an RFC 3339 timestamp"))
        }
        return date
    }
}

/// The service's timestamps: RFC 3339, with or without fraction digits.
enum TripDates {
    static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle().parse(text))
            ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
    }
}
