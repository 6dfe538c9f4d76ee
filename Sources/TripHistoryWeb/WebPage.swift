import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// An HTML page rendered once at start-up, answered with `no-cache` and a strong entity tag so a browser
/// revalidates it on every visit and gets a `304` while it is unchanged.
struct WebPage: Sendable {
    let body: ByteBuffer
    /// The quoted strong entity tag: the SHA-256 of the rendered bytes.
    let entityTag: String

    /// Why a page template could not be rendered.
    struct RenderingError: Error, CustomStringConvertible {
        let description: String
    }

    /// Replaces every `{{asset:NAME}}` in `template` with the hashed path of the asset `NAME`; throws when
    /// a placeholder names no asset, so a page can never point at a URL that 404s.
    init(template: [UInt8], assets: [WebAsset]) throws {
        var html = String(decoding: template, as: UTF8.self)
        for asset in assets {
            html = html.replacingOccurrences(of: "{{asset:\(asset.name)}}", with: asset.path)
        }
        if let start = html.range(of: "{{") {
            let placeholder = html[start.lowerBound...].prefix(while: { $0 != "}" })
            throw RenderingError(description: "a page names an unknown asset: \(placeholder)}}")
        }
        let bytes = Array(html.utf8)
        body = ByteBuffer(bytes: bytes)
        entityTag = "\"\(WebAsset.hexDigest(of: bytes))\""
    }

    func response(to request: Request) -> Response {
        var headers = WebPages.securityHeaders
        headers[.cacheControl] = "no-cache"
        headers[.eTag] = entityTag
        if let ifNoneMatch = request.headers[.ifNoneMatch], Self.matches(ifNoneMatch, entityTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// Whether an `If-None-Match` value names `tag`: `*`, or a list of tags compared weakly (RFC 9110).
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }
}
