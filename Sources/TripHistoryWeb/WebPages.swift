import HTTPTypes
public import Hummingbird
import NIOCore

/// The trip explorer (`GET /explorer`, with `GET /` redirecting to it) and the API reference (`GET /docs`):
/// pages for people, served by the service from files built into the binary, with no request leaving for
/// another origin.
///
/// Pages are HTML whose scripts and style sheets are separate files under `/assets/`, named with a hash of
/// their content and cached for a year; the HTML itself is revalidated on every visit (`no-cache`, with an
/// entity tag), so a deploy is picked up at once. Every response carries a strict Content-Security-Policy
/// (scripts, styles, images and requests from this origin only; no inline code, no framing) and `nosniff`.
/// The API reference reads `openapi.json`, the served `openapi.yaml` converted to JSON once, here.
public struct WebPages: Sendable {
    /// The rendered pages by path.
    private let pages: [String: WebPage]
    /// The assets by the file name in their URL (`explorer.3f9a1c0b7d2e.js`).
    private let assets: [String: WebAsset]

    /// Renders the pages: each asset placeholder in the HTML (`{{asset:explorer.js}}`) becomes that asset's
    /// hashed URL. `openAPIDocument` is the `openapi.yaml` the service serves; throws when it is not YAML
    /// or when a page names an asset that does not exist.
    public init(openAPIDocument: [UInt8]) throws {
        let files = [
            WebAsset(name: "app.css", contentType: "text/css; charset=utf-8", bytes: PackageResources.app_css),
            WebAsset(
                name: "explorer.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.explorer_js),
            WebAsset(name: "docs.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.docs_js),
            WebAsset(name: "favicon.svg", contentType: "image/svg+xml", bytes: PackageResources.favicon_svg),
            WebAsset(
                name: "openapi.json", contentType: "application/json",
                bytes: try OpenAPIJSON.convert(yaml: openAPIDocument)),
        ]
        pages = [
            Self.explorerPath: try WebPage(template: PackageResources.explorer_html, assets: files),
            Self.docsPath: try WebPage(template: PackageResources.docs_html, assets: files),
        ]
        assets = Dictionary(uniqueKeysWithValues: files.map { (String($0.path.dropFirst(Self.assetPrefix.count)), $0) })
    }

    /// The explorer's path.
    public static let explorerPath = "/explorer"
    /// The API reference's path.
    public static let docsPath = "/docs"
    static let assetPrefix = "/assets/"

    /// The hashed URL path of the asset `name` (`explorer.js`), nil for an unknown name.
    public func assetPath(_ name: String) -> String? {
        assets.values.first { $0.name == name }?.path
    }

    /// Adds `GET /`, `GET /explorer`, `GET /docs` and `GET /assets/{file}` (and their `HEAD`s, when the
    /// router generates them) to `router`. An unknown asset is an `HTTPError(.notFound)`, which the
    /// service's problem middleware turns into its 404 problem.
    public func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/") { request, _ in
            var location = Self.explorerPath
            if let query = request.uri.query, !query.isEmpty { location += "?" + query }
            var headers = Self.securityHeaders
            headers[.location] = location
            headers[.cacheControl] = "no-cache"
            return Response(status: .found, headers: headers)
        }
        for (path, page) in pages {
            router.get(RouterPath(path)) { request, _ in page.response(to: request) }
        }
        router.get("/assets/:file") { _, context in
            guard let file = context.parameters.get("file"), let asset = assets[file] else {
                throw HTTPError(.notFound)
            }
            var headers = Self.securityHeaders
            headers[.contentType] = asset.contentType
            headers[.cacheControl] = "public, max-age=31536000, immutable"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
        }
    }

    /// What the pages may load: scripts, styles, images and `fetch` from this origin only; no inline script
    /// or style, no plugins, no framing by any site, no `<base>` and forms that post only here.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The headers every response of these routes carries.
    static let securityHeaders: HTTPFields = [
        HTTPField.Name("Content-Security-Policy")!: contentSecurityPolicy,
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        HTTPField.Name("Cross-Origin-Opener-Policy")!: "same-origin",
    ]
}
