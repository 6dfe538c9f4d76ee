import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryPresentation

@Suite struct ReceiptPresenterTests {
    private static let presenter = TripPresenter()

    /// The sample trip of `TripFixture` ($18.34 in New York) with a breakdown, a tip of $3.00, a refund of
    /// $1.50, a card payment and a driver.
    static func receiptTrip(
        breakdown: [FareLine]? = [
            FareLine(kind: .base, amountMinor: 500), FareLine(kind: .distance, amountMinor: 900),
            FareLine(kind: .time, amountMinor: 334), FareLine(kind: .bookingFee, amountMinor: 200),
            FareLine(kind: .promotion, amountMinor: -100),
        ],
        totals: AdjustmentTotals = AdjustmentTotals(tipsMinor: 300, refundsMinor: -150, correctionsMinor: 0),
        payment: Payment? = Payment(method: .card, brand: "Visa", last4: "4242")
    ) throws -> Trip {
        let trip = try TripFixture.trip()
        return Trip(
            id: trip.id, riderID: trip.riderID, details: trip.details,
            lifecycle: TripLifecycle(
                version: 3, recordedAt: trip.requestedAt, updatedAt: trip.requestedAt, totals: totals),
            receipt: TripReceipt(
                breakdown: breakdown, payment: payment,
                driver: Driver(
                    firstName: "Dana",
                    vehicle: Vehicle(make: "Toyota", model: "Camry", color: "Blue", plate: "T123456C"))),
            adjustments: [])
    }

    /// Per locale: the labels of the lines (base, distance, time, booking fee, promotion), of the fare, tips,
    /// refunds and total, the formatted total ($18.34 + $3.00 - $1.50), and the card's method word.
    @Test(arguments: [
        (
            SupportedLocale.enUS, ["Base fare", "Distance", "Time", "Booking fee", "Promotion"],
            ["Fare", "Tips", "Refunds", "Total"], "$19.84", "Card"
        ),
        (
            .enGB, ["Base fare", "Distance", "Time", "Booking fee", "Promotion"], ["Fare", "Tips", "Refunds", "Total"],
            "US$19.84", "Card"
        ),
        (
            .frFR, ["Prix de base", "Distance", "Temps", "Frais de réservation", "Promotion"],
            ["Course", "Pourboires", "Remboursements", "Total"], "19,84\u{00A0}$US", "Carte"
        ),
        (
            .deDE, ["Grundpreis", "Strecke", "Zeit", "Buchungsgebühr", "Rabatt"],
            ["Fahrpreis", "Trinkgeld", "Erstattungen", "Gesamt"], "19,84\u{00A0}$", "Karte"
        ),
        (
            .jaJP, ["基本料金", "距離料金", "時間料金", "予約手数料", "割引"], ["運賃", "チップ", "返金", "合計"], "$19.84",
            "カード"
        ),
        (
            .esES, ["Tarifa base", "Distancia", "Tiempo", "Tarifa de reserva", "Promoción"],
            ["Tarifa", "Propinas", "Reembolsos", "Total"], "19,84\u{00A0}US$", "Tarjeta"
        ),
    ])
    func labelsAndTotalInEveryLocale(
        locale: SupportedLocale, lineLabels: [String], amountLabels: [String], total: String, card: String
    ) throws {
        let receipt = Self.presenter.receipt(for: try Self.receiptTrip(), locale: locale, timeZone: nil)
        #expect(receipt.locale == locale)
        #expect(receipt.lines.map(\.amount.label) == lineLabels)
        #expect(receipt.lines.map(\.kind) == ["base", "distance", "time", "booking_fee", "promotion"])
        #expect(receipt.lines.map(\.amount.amountMinor) == [500, 900, 334, 200, -100])
        #expect(
            [receipt.fare.label, receipt.tips?.label, receipt.refunds?.label, receipt.total.label] == amountLabels)
        #expect(receipt.corrections == nil)
        #expect(receipt.total.amountMinor == 1984)
        #expect(receipt.total.amount == total)
        #expect(receipt.currency == "USD")
        // Every amount is formatted as the detail's fare is.
        let trip = try Self.receiptTrip()
        #expect(receipt.total.amount == Self.presenter.display(for: trip, locale: locale, timeZone: nil).fare)
        #expect(receipt.fare.amount == LocaleFormatters(locale).fare(trip.details.fare))
        // A card without brand is named in the locale's language.
        #expect(ReceiptText.forLocale(locale).method(.card) == card)
        #expect(receipt.payment == ReceiptPayment(method: "card", label: "Visa •••• 4242"))
        let display = Self.presenter.display(for: trip, locale: locale, timeZone: nil)
        #expect(
            receipt.trip
                == ReceiptTripSummary(
                    date: display.date, time: display.time, from: "89 E 42nd St, New York, NY 10017",
                    to: "350 5th Ave, New York, NY 10118", distance: display.distance, duration: display.duration,
                    driver: "Dana", vehicle: "Toyota Camry · Blue · T123456C"))
    }

    @Test func everyLocaleLabelsEveryLineKindAndHeading() {
        for locale in SupportedLocale.allCases {
            let text = ReceiptText.forLocale(locale)
            let lineLabels = FareLineKind.allCases.map(text.label)
            #expect(Set(lineLabels).count == FareLineKind.allCases.count, "\(locale)")
            #expect(!lineLabels.contains(""), "\(locale)")
            let labels = text.labels
            let headings = [
                labels.title, labels.charges, labels.payment, labels.trip, labels.date, labels.from, labels.to,
                labels.distance, labels.duration, labels.driver, labels.vehicle,
            ]
            #expect(!headings.contains(""), "\(locale)")
        }
        #expect(ReceiptText.forLocale(.jaJP).label(.surge) == "混雑時料金")
        #expect(ReceiptText.forLocale(.frFR).labels.title == "Reçu")
    }

    @Test func withoutBreakdownOneLineCarriesTheFareAndZeroSumsAreLeftOut() throws {
        let trip = try Self.receiptTrip(breakdown: nil, totals: .none, payment: nil)
        let receipt = Self.presenter.receipt(for: trip, locale: .frFR, timeZone: nil)
        #expect(
            receipt.lines == [
                ReceiptLine(
                    kind: "fare", amount: ReceiptAmount(label: "Course", amountMinor: 1834, amount: "18,34\u{00A0}$US"))
            ])
        #expect(receipt.tips == nil && receipt.refunds == nil && receipt.corrections == nil)
        #expect(receipt.total == ReceiptAmount(label: "Total", amountMinor: 1834, amount: "18,34\u{00A0}$US"))
        #expect(receipt.payment == nil)
        let corrected = try Self.receiptTrip(
            totals: AdjustmentTotals(tipsMinor: 0, refundsMinor: 0, correctionsMinor: -34))
        let correction = Self.presenter.receipt(for: corrected, locale: .enUS, timeZone: nil).corrections
        #expect(correction?.label == "Fare corrections")
        #expect(correction?.amountMinor == -34)
    }

    @Test(arguments: [
        (Payment(method: .card, brand: "Visa", last4: "4242"), SupportedLocale.enUS, "Visa •••• 4242"),
        (Payment(method: .card, brand: nil, last4: "4242"), .deDE, "Karte •••• 4242"),
        (Payment(method: .card, brand: "Amex", last4: nil), .enUS, "Amex"),
        (Payment(method: .cash, brand: nil, last4: nil), .frFR, "Espèces"),
        (Payment(method: .wallet, brand: "Apple Pay", last4: nil), .jaJP, "Apple Pay"),
        (Payment(method: .wallet, brand: nil, last4: nil), .esES, "Monedero"),
    ])
    func paymentLabels(payment: Payment, locale: SupportedLocale, label: String) {
        let shown = TripPresenter.payment(payment, text: ReceiptText.forLocale(locale))
        #expect(shown == ReceiptPayment(method: payment.method.rawValue, label: label))
    }

    @Test func theSummaryFollowsTheDisplayZone() throws {
        let trip = try Self.receiptTrip()
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let receipt = Self.presenter.receipt(for: trip, locale: .enUS, timeZone: tokyo)
        // 19:05 UTC on March 1 is 04:05 on March 2 in Tokyo.
        #expect(receipt.trip.date == "Mar 2, 2026")
        #expect(receipt.trip.time == "4:05\u{202F}AM")
    }
}
