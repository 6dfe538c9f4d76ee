import Foundation
import TripHistoryDomain

/// The JSON body of `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments`, as sent. Decoding checks only
/// shapes and types (400 on failure); `adjustment()` then applies the rules that need no trip (422).
struct AdjustmentBody: Decodable {
    let kind: String
    let amountMinor: Int64
    let reason: String

    enum CodingKeys: String, CodingKey {
        case kind, reason
        case amountMinor = "amount_minor"
    }

    static func decode(_ bytes: [UInt8], decoder: JSONDecoder) throws(Problem) -> AdjustmentBody {
        try JSONRequestBody.decode(AdjustmentBody.self, bytes, decoder: decoder, what: "an adjustment")
    }

    func adjustment() throws(Problem) -> NewAdjustment {
        guard let kind = AdjustmentKind(rawValue: kind) else {
            throw Problem.invalidField("kind", "kind must be one of: tip, refund, fare_correction.")
        }
        do {
            return try NewAdjustment.requested(kind: kind, amountMinor: amountMinor, reason: reason)
        } catch {
            throw Problem.invalidField(error.field, "\(error.field) \(error.reason).")
        }
    }
}
