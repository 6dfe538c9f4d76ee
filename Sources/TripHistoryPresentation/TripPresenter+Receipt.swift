public import Foundation
public import TripHistoryDomain

extension TripPresenter {
    /// The receipt of `trip` (read for its detail, so with its receipt's parts) in `locale`, its date and time
    /// shown in `timeZone` or the trip's own zone, as `display(for:locale:timeZone:)` shows them. Amounts
    /// are formatted as `display.fare` is; a zero tip, refund or correction sum is left out.
    public func receipt(for trip: Trip, locale: SupportedLocale, timeZone: TimeZone?) -> ReceiptDisplay {
        let formatters = formatters(for: locale)
        let text = formatters.receiptText
        let details = trip.details
        let currency = details.fare.currency
        func amount(_ label: String, _ minor: Int64) -> ReceiptAmount {
            ReceiptAmount(
                label: label, amountMinor: minor, amount: formatters.fare(Money(amountMinor: minor, currency: currency))
            )
        }
        func nonZero(_ label: String, _ minor: Int64) -> ReceiptAmount? {
            minor == 0 ? nil : amount(label, minor)
        }
        let fare = amount(text.fare, details.fare.amountMinor)
        let lines =
            trip.receipt.breakdown?.map {
                ReceiptLine(kind: $0.kind.rawValue, amount: amount(text.label($0.kind), $0.amountMinor))
            }
            ?? [ReceiptLine(kind: "fare", amount: fare)]
        let totals = trip.lifecycle.totals
        let display = display(for: trip, locale: locale, timeZone: timeZone)
        let driver = trip.receipt.driver
        return ReceiptDisplay(
            locale: locale, lines: lines, fare: fare, tips: nonZero(text.tips, totals.tipsMinor),
            refunds: nonZero(text.refunds, totals.refundsMinor),
            corrections: nonZero(text.corrections, totals.correctionsMinor), total: amount(text.total, trip.totalMinor),
            currency: currency.code, payment: trip.receipt.payment.map { Self.payment($0, text: text) },
            trip: ReceiptTripSummary(
                date: display.date, time: display.time, from: details.pickup.address, to: details.dropoff.address,
                distance: display.distance, duration: display.duration, driver: driver?.firstName,
                vehicle: driver?.vehicle.map {
                    [$0.make + " " + $0.model, $0.color, $0.plate].joined(separator: " · ")
                }
            ),
            labels: text.labels)
    }

    /// The brand (or the method's name, always for cash) and, for a card or wallet with them, the last four
    /// digits behind masking dots: "Visa •••• 4242", "Card •••• 4242", "Cash".
    static func payment(_ payment: Payment, text: ReceiptText) -> ReceiptPayment {
        var label = payment.method == .cash ? text.method(.cash) : payment.brand ?? text.method(payment.method)
        if payment.method != .cash, let last4 = payment.last4 { label += " •••• " + last4 }
        return ReceiptPayment(method: payment.method.rawValue, label: label)
    }
}
