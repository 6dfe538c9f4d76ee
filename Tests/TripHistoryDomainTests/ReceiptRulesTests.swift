import Foundation
import Testing
import TripHistoryDomain

@Suite struct ReceiptRulesTests {
    /// Google's documented example: three points encode to this text.
    @Test func thePolylineOfGooglesExampleDecodesToItsPointsAndBack() throws {
        let text = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
        let points = try EncodedRoute.decode(text)
        #expect(points.map(\.latitude) == [38.5, 40.7, 43.252])
        #expect(points.map(\.longitude) == [-120.2, -120.95, -126.453])
        #expect(EncodedRoute.encode(points.map { ($0.latitude, $0.longitude) }) == text)
        #expect(try EncodedRoute.validated(text).polyline == text)
    }

    @Test(arguments: [
        ("_p~iF", EncodedRoute.Failure.malformed),  // a latitude without its longitude
        ("_p~iF~ps|U_", .malformed),  // a value cut off
        ("_p~iF ps|U", .malformed),  // a character outside 63...126
        ("_p~iF~ps|U", .pointCount),  // one point
        ("~~~~~~~~~~~~~~~~~~~~~~~~", .malformed),  // a value wider than 32 bits
        (EncodedRoute.encode([(latitude: 89, longitude: 0), (latitude: 95, longitude: 0)]), .outOfRange),
    ])
    func malformedPolylinesAreRefused(text: String, failure: EncodedRoute.Failure) {
        #expect(throws: failure) { try EncodedRoute.validated(text) }
    }

    @Test func aPolylineOverTheSizeBoundIsRefused() {
        let points: [(latitude: Double, longitude: Double)] = (0..<4_000).map { index in
            let step = Double(index % 2) * 0.5
            return (latitude: 48.0 + step, longitude: 2.0 + step)
        }
        #expect(throws: EncodedRoute.Failure.tooLong) { try EncodedRoute.validated(EncodedRoute.encode(points)) }
    }

    @Test(arguments: [
        ("4111111111111111", true), ("card 4111 1111 1111 1111 thanks", true), ("4111-1111-1111-1111", true),
        ("378282246310005", true), ("4111111111111112", false), ("4111 1111 1111 111", false),
        ("+33 6 12 34 56 78", false), ("12345678901234567890123", false), ("AB-123-CD", false),
        ("4111  1111 1111 1111", false), ("3782 822463 10005", true),
        // An order reference whose digits pass Luhn but are not grouped like a card.
        ("fault-op 536528257-22544-4", false), ("ref 5365-28257-22544-4", false),
    ])
    func cardNumbersAreFoundWhereverTheyStand(text: String, found: Bool) {
        #expect(CardNumber.appears(in: text) == found)
    }

    private func trip(breakdown: [FareLine]? = nil, payment: Payment? = nil) throws -> NewTrip {
        let base = Date(timeIntervalSince1970: 1_772_400_000)
        return try NewTrip.validated(
            riderID: RiderID(Int64(1))!, status: .completed, product: "UberX", city: "Paris", timeZone: "Europe/Paris",
            requestedAt: base, startedAt: base, completedAt: base.addingTimeInterval(600),
            pickup: Place(latitude: 48.85, longitude: 2.35, address: "1 Rue de Rivoli"),
            dropoff: Place(latitude: 48.86, longitude: 2.33, address: "Louvre"), distanceMeters: 3000,
            durationSeconds: 600, fare: Money(amountMinor: 1500, currency: CurrencyCode("EUR")!),
            receipt: TripReceipt(breakdown: breakdown, payment: payment))
    }

    @Test func aBreakdownMustSumToTheFareAndOnlyPromotionsAreNegative() throws {
        let good = [
            FareLine(kind: .base, amountMinor: 1000), FareLine(kind: .surge, amountMinor: 700),
            FareLine(kind: .promotion, amountMinor: -200),
        ]
        #expect(try trip(breakdown: good).receipt.breakdown == good)
        let short = [FareLine(kind: .base, amountMinor: 1000)]
        #expect(throws: ValidationError(field: "fare.breakdown", reason: "must sum exactly to fare.amount_minor")) {
            try trip(breakdown: short)
        }
        #expect { try trip(breakdown: [FareLine(kind: .promotion, amountMinor: 1500)]) } throws: {
            ($0 as? ValidationError)?.field == "fare.breakdown[0].amount_minor"
        }
        #expect {
            try trip(breakdown: [FareLine(kind: .tolls, amountMinor: -1), FareLine(kind: .base, amountMinor: 1501)])
        } throws: {
            ($0 as? ValidationError)?.field == "fare.breakdown[0].amount_minor"
        }
        #expect { try trip(breakdown: []) } throws: { ($0 as? ValidationError)?.field == "fare.breakdown" }
    }

    @Test func aCashPaymentHasNoCardDigits() throws {
        #expect(
            try trip(payment: Payment(method: .card, brand: "visa", last4: "4242")).receipt.payment?.last4 == "4242")
        #expect { try trip(payment: Payment(method: .cash, brand: nil, last4: "4242")) } throws: {
            ($0 as? ValidationError)?.field == "payment.last4"
        }
        #expect { try trip(payment: Payment(method: .card, brand: nil, last4: "42a2")) } throws: {
            ($0 as? ValidationError)?.field == "payment.last4"
        }
    }

    @Test func aReceiptChangesTheFingerprintAndNoReceiptKeepsTheOldOne() throws {
        let plain = try trip()
        let paid = try trip(payment: Payment(method: .card, brand: "visa", last4: "4242"))
        #expect(plain.fingerprint != paid.fingerprint)
        #expect(!plain.fingerprint.contains("receipt"))
    }
}
