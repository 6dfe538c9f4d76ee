// swift-tools-version:6.1
import PackageDescription

/// Settings shared by every target, so the whole tree follows the same language rules.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    // Lets release builds specialize the generic cache, routes and use cases for the concrete types the
    // executable wires, instead of instantiating generic metadata at run time on every request.
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
]

/// The Swift client's settings: its own list, because an app builds these targets as a dependency, where SwiftPM
/// refuses unsafe flags, and because the client's sources use the default import visibility.
let clientSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "trip-history",
    // Platforms are the package's, not a target's: macOS is the server's floor (Synchronization), the others the
    // client's. The view models ask for Observation's releases themselves (`@available`).
    platforms: [.macOS(.v15), .iOS(.v15), .macCatalyst(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    // Only the Swift client's libraries are products, so an app that adds this repository by URL fetches their
    // dependencies alone: SwiftPM fetches, for a dependent, what any product of a package needs, and nothing that
    // only targets outside every product need. The executables (`trip-history`, `bench-static-server`) are
    // products of this package only when it is the root, which SwiftPM makes of every executable target.
    products: [
        .library(name: "TripHistoryClient", targets: ["TripHistoryClient"]),
        .library(name: "TripHistoryListModel", targets: ["TripHistoryListModel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.1.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: []),
        // Only the OTLP/HTTP exporter: the default traits add the gRPC exporter and its much larger build.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        // The Swift client's: the runtime of the code generated from openapi.yaml, and URLSession.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
    ],
    targets: [
        // The Swift client, whose sources and tests live in Client/ (Client/Package.swift builds its tests, its
        // example command and its documentation). Its code generated from openapi.yaml is committed
        // (scripts/swift-client/generate), so neither this package nor an app builds the generator.
        .target(
            name: "TripHistoryClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Client/Sources/TripHistoryClient",
            swiftSettings: clientSwiftSettings
        ),
        .target(
            name: "TripHistoryListModel",
            dependencies: ["TripHistoryClient"],
            path: "Client/Sources/TripHistoryListModel",
            swiftSettings: clientSwiftSettings
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "TripHistoryDomain",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryData",
            dependencies: [
                "TripHistoryDomain",
                "CLibPQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // Links to the repository's migrations/ and scripts/shards/, built into the binary so `migrate` needs no
            // checkout, on one node or on every partition of the sharded topology.
            resources: [.embedInCode("Migrations/SQL"), .embedInCode("Sharding/SQL")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryCache",
            dependencies: [.product(name: "Metrics", package: "swift-metrics")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryPresentation",
            dependencies: ["TripHistoryDomain"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryAPI",
            dependencies: [
                "TripHistoryDomain",
                "TripHistoryPresentation",
                "TripHistoryCache",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // The receipt page's template and style sheet, built into the binary.
            resources: [.embedInCode("Receipts/Templates")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryHTTP",
            dependencies: [
                "TripHistoryAPI",
                "TripHistoryCache",
                "TripHistoryDomain",
                "TripHistoryPresentation",
                "TripHistoryWeb",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryLogging",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryWeb",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
            ],
            // `OpenAPI/openapi.yaml` is a link to the repository's openapi.yaml, built into the binary so `serve`
            // needs no checkout.
            resources: [.embedInCode("Assets"), .embedInCode("OpenAPI")],
            swiftSettings: swiftSettings
        ),
        // The composition root and the one reading of the settings, apart from the executable so the tests can
        // build the service exactly as `serve` does.
        .target(
            name: "TripHistoryApp",
            dependencies: [
                "TripHistoryDomain",
                "TripHistoryData",
                "TripHistoryPresentation",
                "TripHistoryAPI",
                "TripHistoryHTTP",
                "TripHistoryCache",
                "TripHistoryWeb",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "trip-history",
            dependencies: [
                "TripHistoryApp",
                "TripHistoryDomain",
                "TripHistoryData",
                "TripHistoryAPI",
                "TripHistoryHTTP",
                "TripHistoryWeb",
                "TripHistoryLogging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "OTel", package: "swift-otel"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "bench-static-server",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "bench/static-server",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryFakes",
            dependencies: ["TripHistoryDomain"],
            path: "Tests/TripHistoryFakes",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryTestSupport",
            dependencies: [
                "TripHistoryApp",
                "TripHistoryData",
                "TripHistoryDomain",
                "TripHistoryFakes",
                "TripHistoryWeb",
                "TripHistoryAPI",
                "TripHistoryHTTP",
                "TripHistoryCache",
                "TripHistoryPresentation",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/TripHistoryTestSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TripHistoryDataTestSupport",
            dependencies: [
                "TripHistoryData",
                "TripHistoryDomain",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/TripHistoryDataTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryDataTests",
            dependencies: [
                "TripHistoryData",
                "TripHistoryDomain",
                "TripHistoryDataTestSupport",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryLoggingTests",
            dependencies: ["TripHistoryLogging", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryDomainTests",
            dependencies: ["TripHistoryDomain", "TripHistoryFakes"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryAPITests",
            dependencies: [
                "TripHistoryAPI",
                "TripHistoryDomain",
                "TripHistoryFakes",
                "TripHistoryCache",
                "TripHistoryPresentation",
                "TripHistoryTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryCacheTests",
            dependencies: [
                "TripHistoryCache",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryPresentationTests",
            dependencies: ["TripHistoryPresentation", "TripHistoryDomain"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryHTTPTests",
            dependencies: [
                "TripHistoryAPI",
                "TripHistoryHTTP",
                "TripHistoryDomain",
                "TripHistoryPresentation",
                "TripHistoryTestSupport",
                "TripHistoryFakes",
                "TripHistoryCache",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryIntegrationTests",
            dependencies: [
                "TripHistoryAPI",
                "TripHistoryData",
                "TripHistoryDomain",
                "TripHistoryHTTP",
                "TripHistoryPresentation",
                "TripHistoryTestSupport",
                "TripHistoryFakes",
                "TripHistoryDataTestSupport",
                "TripHistoryCache",
                "TripHistoryApp",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryAppTests",
            dependencies: [
                "TripHistoryApp",
                "TripHistoryAPI",
                "TripHistoryCache",
                "TripHistoryData",
                "TripHistoryDomain",
                "TripHistoryHTTP",
                "TripHistoryFakes",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryWebTests",
            dependencies: [
                "TripHistoryApp",
                "TripHistoryWeb",
                "TripHistoryTestSupport",
                "TripHistoryDataTestSupport",
                "TripHistoryFakes",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
