// swift-tools-version:6.1
import PackageDescription

/// Settings shared by every target, the same language rules as the client's libraries.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The Swift client's development package: its tests, its example command, its documentation and the generator
/// of its committed code.
///
/// The client's libraries, `TripHistoryClient` and `TripHistoryListModel`, are products of the repository's root
/// package (their sources are in `Sources/` here), which apps add by URL. This package depends on the root by path
/// as an app does by URL, so it too fetches and builds none of the server's dependencies.
let package = Package(
    name: "trip-history-client",
    // The root package's macOS floor; the view model's tests need Observation there too.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "trip-history-client", targets: ["trip-history-client"])
    ],
    dependencies: [
        .package(name: "trip-history", path: ".."),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // `swift package generate-documentation --target TripHistoryClient` (the plugin documents a dependency's
        // targets too), kept out of the root package so that server builds never compile the plugin.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        // The generator of the client's committed code (scripts/swift-client/generate runs it), pinned so that the
        // check of that code never fails on a generator release.
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3"),
    ],
    targets: [
        .executableTarget(
            name: "trip-history-client",
            dependencies: [
                .product(name: "TripHistoryClient", package: "trip-history"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryClientTests",
            dependencies: [
                .product(name: "TripHistoryClient", package: "trip-history"),
                .product(name: "TripHistoryListModel", package: "trip-history"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryClientIntegrationTests",
            dependencies: [
                .product(name: "TripHistoryClient", package: "trip-history"),
                .product(name: "TripHistoryListModel", package: "trip-history"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
