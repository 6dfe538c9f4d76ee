/// The representations of a trip's receipt, chosen by the `Accept` header: JSON for apps (also for `*/*` or
/// no `Accept`), a printable HTML page for browsers.
enum ReceiptFormat: NegotiatedFormat {
    case json
    case html

    /// In the order a tie or a wildcard is settled.
    static let offered: [ReceiptFormat] = [.json, .html]

    var mediaType: String {
        switch self {
        case .json: return "application/json"
        case .html: return "text/html"
        }
    }

    /// How a receipt in this format is served: it varies by `Accept` too, and the page has its own policy.
    func representation(policy: String) -> CachedTripResponse.Representation {
        switch self {
        case .json:
            CachedTripResponse.Representation(
                contentType: mediaType, vary: "Authorization, Accept, Accept-Language", contentSecurityPolicy: nil)
        case .html:
            CachedTripResponse.Representation(
                contentType: "text/html; charset=utf-8", vary: "Authorization, Accept, Accept-Language",
                contentSecurityPolicy: policy)
        }
    }
}
