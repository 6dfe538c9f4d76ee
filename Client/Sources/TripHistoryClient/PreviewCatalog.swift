import Foundation

/// The sample trips `PreviewTransport` serves, and its answers built from them as the service writes them.
///
/// Deterministic: the same count gives the same trips, newest first, one every day and a half back from a
/// fixed evening, in five cities; every seventh is canceled and every fourth completed one was tipped.
struct PreviewCatalog {
    /// One answer: a status, an entity tag, a JSON body.
    struct Answer {
        var status: Int
        var etag: String?
        var body: [UInt8]

        /// A problem document as the service writes it.
        static func problem(status: Int, code: String, retryable: Bool) -> Answer {
            json(
                [
                    "type": "urn:trip-history:problem:\(code)", "title": code, "status": status,
                    "detail": "A preview's canned \(code).", "code": code, "retryable": retryable,
                    "request_id": "preview",
                ], status: status, etag: nil)
        }

        /// `object` written as JSON.
        static func json(_ object: [String: Any], status: Int = 200, etag: String?) -> Answer {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return Answer(status: status, etag: etag, body: [UInt8](data))
        }
    }

    /// A request's path segments and query items.
    struct Query {
        var segments: [String]
        var items: [String: String]

        init(path: String) {
            let components = URLComponents(string: path)
            segments = (components?.path ?? path).split(separator: "/").map { String($0).removingPercentEncoding ?? "" }
            items = Dictionary(
                (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                uniquingKeysWith: { first, _ in first })
        }
    }

    /// One sample trip.
    struct Sample {
        var id: String
        var city: City
        var product: String
        var pickup: String
        var dropoff: String
        var requestedAt: Date
        var canceled: Bool
        var amountMinor: Int
        var tipMinor: Int
        var distanceM: Int
        var durationS: Int

        var startedAt: Date { requestedAt.addingTimeInterval(240) }
        var completedAt: Date? { canceled ? nil : startedAt.addingTimeInterval(TimeInterval(durationS)) }
        var recordedAt: Date { (completedAt ?? startedAt).addingTimeInterval(2) }
        var updatedAt: Date { tipMinor > 0 ? recordedAt.addingTimeInterval(5400) : recordedAt }

        /// The trip as a list row, a feed entry or an export line carry it.
        func row(rider: String = "1") -> [String: Any] {
            let total = amountMinor + tipMinor
            return [
                "id": id, "rider_id": rider, "status": canceled ? "canceled" : "completed", "product": product,
                "city": city.name, "time_zone": city.zone, "requested_at": PreviewCatalog.timestamp(requestedAt),
                "started_at": PreviewCatalog.timestamp(startedAt),
                "completed_at": completedAt.map(PreviewCatalog.timestamp) ?? NSNull(),
                "pickup": ["lat": city.lat, "lon": city.lon, "address": "\(pickup), \(city.name)"],
                "dropoff": ["lat": city.lat + 0.021, "lon": city.lon + 0.017, "address": "\(dropoff), \(city.name)"],
                "distance_m": distanceM, "duration_s": durationS,
                "fare": [
                    "amount_minor": amountMinor, "currency": city.currency, "total_minor": total,
                    "tips_minor": tipMinor, "refunds_minor": 0,
                ],
                "display": [
                    "title": "Trip to \(dropoff)", "date": PreviewCatalog.format("MMM d, yyyy", requestedAt, city),
                    "time": PreviewCatalog.format("h:mm a", requestedAt, city),
                    "fare": PreviewCatalog.money(total, currency: city.currency),
                    "distance": String(format: "%.1f mi", Double(distanceM) / 1609.344),
                    "duration": "\(durationS / 60) min", "status": canceled ? "Canceled" : "Completed",
                ],
                "version": tipMinor > 0 ? 2 : 1, "recorded_at": PreviewCatalog.timestamp(recordedAt),
                "updated_at": PreviewCatalog.timestamp(updatedAt),
            ]
        }

        /// The trip in detail form: the row, the fare's line items and the adjustments.
        func detail(rider: String) -> [String: Any] {
            var trip = row(rider: rider)
            var fare = trip["fare"] as? [String: Any] ?? [:]
            if canceled {
                fare["breakdown"] = [["kind": "base", "amount_minor": amountMinor]]
            } else {
                let base = amountMinor / 5
                let distance = amountMinor / 2
                let fee = amountMinor / 10
                fare["breakdown"] = [
                    ["kind": "base", "amount_minor": base], ["kind": "distance", "amount_minor": distance],
                    ["kind": "time", "amount_minor": amountMinor - base - distance - fee],
                    ["kind": "booking_fee", "amount_minor": fee],
                ]
            }
            trip["fare"] = fare
            trip["adjustments"] =
                tipMinor > 0
                ? [
                    [
                        "id": "9\(id)", "kind": "tip", "amount_minor": tipMinor, "reason": "In-app tip",
                        "created_at": PreviewCatalog.timestamp(updatedAt),
                    ]
                ] : []
            return trip
        }
    }

    /// A city of the samples.
    struct City {
        var name: String
        var zone: String
        var currency: String
        var lat: Double
        var lon: Double
        var places: [String]
    }

    private static let cities = [
        City(
            name: "New York", zone: "America/New_York", currency: "USD", lat: 40.7128, lon: -74.006,
            places: ["350 5th Ave", "1 Centre St", "JFK Terminal 4", "Brooklyn Bridge Park"]),
        City(
            name: "Paris", zone: "Europe/Paris", currency: "EUR", lat: 48.8566, lon: 2.3522,
            places: ["Place Charles de Gaulle", "1 Rue de Rivoli", "Gare du Nord", "Champ de Mars"]),
        City(
            name: "Tokyo", zone: "Asia/Tokyo", currency: "JPY", lat: 35.6812, lon: 139.7671,
            places: ["Tokyo Station", "Shibuya Crossing", "Haneda Airport T3", "Roppongi Hills"]),
        City(
            name: "London", zone: "Europe/London", currency: "GBP", lat: 51.5074, lon: -0.1278,
            places: ["King's Cross", "Tower Bridge", "Heathrow T5", "Covent Garden"]),
        City(
            name: "San Francisco", zone: "America/Los_Angeles", currency: "USD", lat: 37.7749, lon: -122.4194,
            places: ["Ferry Building", "SFO Terminal 2", "Golden Gate Park", "Oracle Park"]),
    ]

    /// The newest sample's request time, an evening (2026-03-01 18:30 UTC).
    private static let newest = Date(timeIntervalSince1970: 1_772_389_800)

    let trips: [Sample]

    init(count: Int) {
        trips = (0..<max(0, count)).map { index in
            let city = Self.cities[(index / 3) % Self.cities.count]
            let canceled = index % 7 == 5
            let yen = city.currency == "JPY"
            let amount = canceled ? 500 : yen ? 1500 + index * 370 % 3000 : 1200 + index * 537 % 2400
            return Sample(
                id: String(200_000 - index),
                city: city, product: index % 4 == 3 ? "Comfort" : "UberX",
                pickup: city.places[index % city.places.count], dropoff: city.places[(index + 1) % city.places.count],
                requestedAt: Self.newest.addingTimeInterval(-Double(index) * 37 * 3600 - Double(index % 5) * 600),
                canceled: canceled, amountMinor: amount,
                tipMinor: !canceled && index % 4 == 1 ? amount * 15 / 100 : 0,
                distanceM: canceled ? 0 : 2400 + index * 733 % 9000, durationS: canceled ? 0 : 600 + index * 97 % 1800)
        }
    }

    /// A page of `rider`'s trips for the query's `limit`, `cursor`, `from`, `to`, `tz` and `status`.
    func page(rider: String, query: Query) -> Answer {
        let items = query.items
        guard let limit = Int(items["limit"] ?? "20"), (1...100).contains(limit) else {
            return .problem(status: 400, code: "invalid_parameter", retryable: false)
        }
        let zone = items["tz"].flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        let from = Self.bound(items["from"], in: zone)
        let to = Self.bound(items["to"], in: zone)
        if case .invalid = from { return .problem(status: 400, code: "invalid_parameter", retryable: false) }
        if case .invalid = to { return .problem(status: 400, code: "invalid_parameter", retryable: false) }
        let status = items["status"]
        let matching = trips.filter { trip in
            if let status, status != (trip.canceled ? "canceled" : "completed") { return false }
            if let from = from.date, trip.requestedAt < from { return false }
            if let to = to.date, trip.requestedAt >= to { return false }
            return true
        }
        var offset = 0
        if let cursor = items["cursor"] {
            guard cursor.hasPrefix("preview-"), let start = Int(cursor.dropFirst(8)), start >= 0 else {
                return .problem(status: 400, code: "invalid_cursor", retryable: false)
            }
            offset = min(start, matching.count)
        }
        let end = min(offset + limit, matching.count)
        let page: [String: Any] = [
            "limit": limit, "has_more": end < matching.count,
            "next_cursor": end < matching.count ? "preview-\(end)" : NSNull(),
            "prev_cursor": offset > 0 ? "preview-\(max(0, offset - limit))" : NSNull(),
        ]
        let filter: [String: Any] = [
            "from": from.date.map(Self.timestamp) ?? NSNull(), "to": to.date.map(Self.timestamp) ?? NSNull(),
            "tz": items["tz"] ?? NSNull(), "status": status ?? NSNull(),
        ]
        let etag = "\"preview-\(matching.count)-\(offset)-\(limit)\""
        return .json(
            ["data": matching[offset..<end].map { $0.row(rider: rider) }, "page": page, "filter": filter], etag: etag)
    }

    /// The changes feed of a service where nothing changes: no entry, and always the same token.
    func changes() -> Answer {
        .json(["data": [], "page": ["has_more": false, "next_since": "preview"]], etag: "\"preview-feed\"")
    }

    /// Trip `id` of `rider` in detail form, or `404 not_found`.
    func detail(rider: String, id: String) -> Answer {
        guard let trip = trips.first(where: { $0.id == id }) else {
            return .problem(status: 404, code: "not_found", retryable: false)
        }
        return .json(trip.detail(rider: rider), etag: "\"preview-trip-\(id)\"")
    }

    /// A `from` or `to` parameter as a page applies it.
    enum Bound {
        case open
        case at(Date)
        case invalid

        var date: Date? {
            if case .at(let date) = self { date } else { nil }
        }
    }

    /// The bound `text` stands for: a day starts at midnight in `zone`.
    private static func bound(_ text: String?, in zone: TimeZone) -> Bound {
        guard let text else { return .open }
        if DateBound.day(text) != nil {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = text.split(separator: "-").compactMap { Int($0) }
            let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
            return day.map(Bound.at) ?? .invalid
        }
        return TripDates.parse(text).map(Bound.at) ?? .invalid
    }

    /// `value` decoded from `object` as the client decodes the service's JSON.
    static func decode<Value: Decodable>(_ type: Value.Type, from object: [String: Any]) throws -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = TripDates.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: text))
            }
            return date
        }
        return try decoder.decode(type, from: JSONSerialization.data(withJSONObject: object))
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
    }

    private static func format(_ pattern: String, _ date: Date, _ city: City) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.timeZone = TimeZone(identifier: city.zone)
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    private static func money(_ minor: Int, currency: String) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.numberStyle = .currency
        formatter.currencyCode = currency
        let digits = currency == "JPY" ? 0 : 2
        formatter.maximumFractionDigits = digits
        formatter.minimumFractionDigits = digits
        let amount = Decimal(minor) / pow(Decimal(10), digits)
        return formatter.string(from: NSDecimalNumber(decimal: amount)) ?? "\(currency) \(amount)"
    }
}
