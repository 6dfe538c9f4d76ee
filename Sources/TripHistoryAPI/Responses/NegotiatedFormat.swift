import Foundation

/// A representation a route can answer with, chosen by the request's `Accept` header.
protocol NegotiatedFormat: Hashable, Sendable {
    /// The `Content-Type` it is served with, without parameters.
    var mediaType: String { get }
    /// Other media types `Accept` may name it by.
    var mediaTypeAliases: [String] { get }
}

extension NegotiatedFormat {
    var mediaTypeAliases: [String] { [] }

    /// The format `accept` prefers among `offered` (in the server's order of preference for ties and
    /// wildcards). No header, or an empty one, means the first offered. Throws 406 when nothing offered is
    /// acceptable. Parameters other than `q` are ignored; a malformed `q` counts as 1.
    static func negotiate(accept: String?, offered: [Self]) throws(Problem) -> Self {
        guard let accept, !accept.allSatisfy({ $0 == " " || $0 == "," }) else { return offered[0] }
        var best: (format: Self, quality: Double, specificity: Int)?
        for range in accept.split(separator: ",").prefix(32) {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)).map { min(max($0, 0), 1) } ?? 1
            }
            guard quality > 0 else { continue }
            for format in offered {
                guard let specificity = format.specificity(matching: type) else { continue }
                let better = best.map {
                    quality > $0.quality || (quality == $0.quality && specificity > $0.specificity)
                }
                if better ?? true { best = (format, quality, specificity) }
            }
        }
        guard let best else { throw Problem.notAcceptable(supported: offered.map(\.mediaType)) }
        return best.format
    }

    /// 2 for an exact match, 1 for `type/*`, 0 for `*/*`, nil when `range` does not cover this format.
    private func specificity(matching range: String) -> Int? {
        if range == "*/*" { return 0 }
        if range == mediaType || mediaTypeAliases.contains(range) { return 2 }
        if range.hasSuffix("/*"), mediaType.hasPrefix(range.dropLast()) { return 1 }
        return nil
    }
}
