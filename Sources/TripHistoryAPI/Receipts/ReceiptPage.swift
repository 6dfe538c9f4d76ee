import Crypto
import Foundation
import Mustache
import NIOCore
import TripHistoryDomain
import TripHistoryPresentation

/// The printable HTML receipt: `Templates/receipt.mustache` rendered by swift-mustache, which HTML-escapes
/// every value, with `Templates/receipt.css` inlined so the page loads nothing else. Both are built into
/// the binary and parsed once.
///
/// The page carries no script and may load nothing: its `Content-Security-Policy` allows only the inline
/// style sheet, by its SHA-256, so no injected markup could run or fetch anything.
struct ReceiptPage: Sendable {
    /// The parsed template, or why the embedded template did not parse (then every render fails with it).
    private let template: Result<MustacheTemplate, any Error>
    /// The style sheet exactly as the page's `<style>` element holds it.
    let stylesheet: String
    /// The `Content-Security-Policy` of the page.
    let contentSecurityPolicy: String

    init() {
        stylesheet = String(decoding: PackageResources.receipt_css, as: UTF8.self)
        template = Result {
            try MustacheTemplate(string: String(decoding: PackageResources.receipt_mustache, as: UTF8.self))
        }
        let digest = Data(SHA256.hash(data: Array(stylesheet.utf8))).base64EncodedString()
        contentSecurityPolicy =
            "default-src 'none'; style-src 'sha256-\(digest)'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'"
    }

    /// The page of `receipt`, the receipt of trip `tripID`, as UTF-8.
    func render(_ receipt: ReceiptDisplay, tripID: TripID) throws -> ByteBuffer {
        let html = try template.get().render(Self.values(of: receipt, tripID: tripID, stylesheet: stylesheet))
        return ByteBuffer(string: html)
    }

    /// What the template reads, by the names it uses; an optional part is absent when nil, so its section is
    /// left out.
    private static func values(of receipt: ReceiptDisplay, tripID: TripID, stylesheet: String) -> [String: Any] {
        func amount(_ amount: ReceiptAmount) -> [String: Any] {
            ["label": amount.label, "amount": amount.amount]
        }
        let labels = receipt.labels
        let trip = receipt.trip
        var values: [String: Any] = [
            "locale": receipt.locale.identifier,
            "stylesheet": stylesheet,
            "trip_id": tripID.description,
            "lines": receipt.lines.map { ["kind": $0.kind, "label": $0.amount.label, "amount": $0.amount.amount] },
            "fare": amount(receipt.fare),
            "total": amount(receipt.total),
            "labels": [
                "title": labels.title, "charges": labels.charges, "payment": labels.payment, "trip": labels.trip,
                "date": labels.date, "from": labels.from, "to": labels.to, "distance": labels.distance,
                "duration": labels.duration, "driver": labels.driver, "vehicle": labels.vehicle,
            ],
        ]
        var summary: [String: Any] = [
            "date": trip.date, "time": trip.time, "from": trip.from, "to": trip.to, "distance": trip.distance,
            "duration": trip.duration,
        ]
        summary["driver"] = trip.driver
        summary["vehicle"] = trip.vehicle
        values["trip"] = summary
        values["tips"] = receipt.tips.map(amount)
        values["refunds"] = receipt.refunds.map(amount)
        values["corrections"] = receipt.corrections.map(amount)
        values["payment"] = receipt.payment.map { ["label": $0.label] }
        return values
    }
}
