import Foundation
import TripHistoryDomain

/// Decoding of JSON request bodies, shared by every operation that takes one: shape and type errors become
/// 400 problems naming the field by its JSON path, and a body with a payment card number in any string is a
/// 422 naming that string's path, so such a number is never stored or logged.
enum JSONRequestBody {
    static func decode<Body: Decodable>(
        _ type: Body.Type, _ bytes: [UInt8], decoder: JSONDecoder, what: String
    ) throws(Problem) -> Body {
        let body: Body
        do {
            body = try decoder.decode(Body.self, from: Data(bytes))
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
            throw Problem.invalidParameter("body", "The request body must be a JSON object describing \(what).")
        }
        if let field = cardNumberField(in: bytes) {
            throw Problem.invalidField(
                field, "\(field) must not contain a payment card number; send at most its last four digits.")
        }
        return body
    }

    /// The JSON path of the first string in the document that holds a card number, nil when none does. The
    /// document is walked only when its bytes hold a run of 13 digits or more (separators allowed), which
    /// ordinary trips never do outside their coordinates.
    static func cardNumberField(in bytes: [UInt8]) -> String? {
        guard mayHoldCardNumber(bytes),
            let document = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        else { return nil }
        return firstCardNumber(in: document, path: "")
    }

    private static func mayHoldCardNumber(_ bytes: [UInt8]) -> Bool {
        var digits = 0
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
                if digits >= 13 { return true }
            } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "-") {
                digits = 0
            }
        }
        return false
    }

    private static func firstCardNumber(in value: Any, path: String) -> String? {
        switch value {
        case let text as String:
            return CardNumber.appears(in: text) ? (path.isEmpty || path.hasPrefix("body") ? "body" : path) : nil
        case let object as [String: Any]:
            // Identifiers are digits by nature; every other string is free text.
            for key in object.keys.sorted() where !key.hasSuffix("_id") {
                guard memberNames.contains(key), !path.hasPrefix("body") else {
                    if firstCardNumber(in: object[key]!, path: "body") != nil { return "body" }
                    continue
                }
                let child = path.isEmpty ? key : path + "." + key
                if let found = firstCardNumber(in: object[key]!, path: child) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = firstCardNumber(in: element, path: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }

    /// The JSON path of a field (`fare.breakdown[0].kind`), or `body` when the whole document is at fault.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "body" }
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return path
    }

    /// The members of every request body this API defines: a path made of others is reported as `body`, so
    /// a problem never echoes a name the client made up.
    static let memberNames: Set<String> = [
        "rider_id", "status", "product", "city", "time_zone", "requested_at", "started_at", "completed_at",
        "pickup", "dropoff", "lat", "lon", "address", "distance_m", "duration_s", "fare", "amount_minor",
        "currency", "breakdown", "kind", "payment", "method", "brand", "last4", "driver", "first_name", "vehicle",
        "make", "model", "color", "plate", "route", "polyline", "reason",
    ]
}
