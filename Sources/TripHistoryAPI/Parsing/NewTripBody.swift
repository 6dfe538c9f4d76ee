import Foundation
import TripHistoryDomain

/// The JSON body of `POST /v1/trips`, as sent. Decoding checks only shapes and types (400 on failure);
/// `newTrip()` then applies the domain's rules (422 on failure).
struct NewTripBody: Decodable {
    struct PlaceBody: Decodable {
        let lat: Double
        let lon: Double
        let address: String
    }

    struct FareBody: Decodable {
        let amountMinor: Int64
        let currency: String

        enum CodingKeys: String, CodingKey {
            case amountMinor = "amount_minor"
            case currency
        }
    }

    let riderID: String
    let status: String
    let product: String
    let city: String
    let timeZone: String
    let requestedAt: String
    let startedAt: String
    let completedAt: String?
    let pickup: PlaceBody
    let dropoff: PlaceBody
    let distanceMeters: Int64
    let durationSeconds: Int64
    let fare: FareBody

    enum CodingKeys: String, CodingKey {
        case riderID = "rider_id"
        case status, product, city, pickup, dropoff, fare
        case timeZone = "time_zone"
        case requestedAt = "requested_at"
        case startedAt = "started_at"
        case completedAt = "completed_at"
        case distanceMeters = "distance_m"
        case durationSeconds = "duration_s"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Ids are decimal strings in this API; a bare integer is accepted too, as clients often send one.
        if let text = try? container.decode(String.self, forKey: .riderID) {
            riderID = text
        } else {
            riderID = String(try container.decode(Int64.self, forKey: .riderID))
        }
        status = try container.decode(String.self, forKey: .status)
        product = try container.decode(String.self, forKey: .product)
        city = try container.decode(String.self, forKey: .city)
        timeZone = try container.decode(String.self, forKey: .timeZone)
        requestedAt = try container.decode(String.self, forKey: .requestedAt)
        startedAt = try container.decode(String.self, forKey: .startedAt)
        completedAt = try container.decodeIfPresent(String.self, forKey: .completedAt)
        pickup = try container.decode(PlaceBody.self, forKey: .pickup)
        dropoff = try container.decode(PlaceBody.self, forKey: .dropoff)
        distanceMeters = try container.decode(Int64.self, forKey: .distanceMeters)
        durationSeconds = try container.decode(Int64.self, forKey: .durationSeconds)
        fare = try container.decode(FareBody.self, forKey: .fare)
    }

    /// Decodes `bytes`, reporting the first missing or mistyped field by its JSON path.
    static func decode(_ bytes: [UInt8], decoder: JSONDecoder) throws(Problem) -> NewTripBody {
        do {
            return try decoder.decode(NewTripBody.self, from: Data(bytes))
        } catch let DecodingError.keyNotFound(key, context) {
            let path = Self.path(context.codingPath + [key])
            throw Problem.invalidParameter(path, "\(path) is required.")
        } catch let DecodingError.valueNotFound(_, context) {
            let path = Self.path(context.codingPath)
            throw Problem.invalidParameter(path, "\(path) must not be null.")
        } catch let DecodingError.typeMismatch(_, context) {
            let path = Self.path(context.codingPath)
            throw Problem.invalidParameter(path, "\(path) has the wrong type.")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            let path = Self.path(context.codingPath)
            throw Problem.invalidParameter(path, "\(path) has an invalid value.")
        } catch {
            throw Problem.invalidParameter("body", "The request body must be a JSON object describing a trip.")
        }
    }

    /// The JSON path of a field, or `body` when the whole document is at fault.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "body" : codingPath.map(\.stringValue).joined(separator: ".")
    }

    /// The domain's new trip, or a 422 naming the field that breaks a rule.
    func newTrip() throws(Problem) -> NewTrip {
        guard let rider = RiderID(riderID) else {
            throw Problem.invalidField("rider_id", "rider_id must be a positive integer written in decimal.")
        }
        guard let tripStatus = TripStatus(rawValue: status) else {
            throw Problem.invalidField("status", "status must be one of: completed, canceled.")
        }
        let requested = try Self.timestamp(requestedAt, field: "requested_at")
        let started = try Self.timestamp(startedAt, field: "started_at")
        let completed = try completedAt.map { text throws(Problem) in try Self.timestamp(text, field: "completed_at") }
        guard let currency = CurrencyCode(fare.currency) else {
            throw Problem.invalidField("fare.currency", "fare.currency must be an ISO 4217 code such as USD.")
        }
        do {
            return try NewTrip.validated(
                riderID: rider, status: tripStatus, product: product, city: city, timeZone: timeZone,
                requestedAt: requested, startedAt: started, completedAt: completed,
                pickup: Place(latitude: pickup.lat, longitude: pickup.lon, address: pickup.address),
                dropoff: Place(latitude: dropoff.lat, longitude: dropoff.lon, address: dropoff.address),
                distanceMeters: distanceMeters, durationSeconds: durationSeconds,
                fare: Money(amountMinor: fare.amountMinor, currency: currency)
            )
        } catch {
            throw Problem.invalidField(error.field, "\(error.field) \(error.reason).")
        }
    }

    private static func timestamp(_ text: String, field: String) throws(Problem) -> Date {
        guard let date = RFC3339.parseTimestamp(text) else {
            throw Problem.invalidField(field, "\(field) must be an RFC 3339 timestamp with an offset.")
        }
        return date
    }
}
