// swift-tools-version:6.0
import PackageDescription

/// Settings shared by every target, the same language rules as the server package.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "trip-history-client",
    // Observation (the view model's `@Observable`) needs these releases on Apple platforms.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "TripHistoryClient", targets: ["TripHistoryClient"]),
        .library(name: "TripHistoryListModel", targets: ["TripHistoryListModel"]),
        .executable(name: "trip-history-client", targets: ["trip-history-client"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "TripHistoryClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The platform's own HTTP stack on Apple systems, AsyncHTTPClient (SwiftNIO) elsewhere.
                .product(
                    name: "OpenAPIURLSession",
                    package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst])
                ),
                .product(
                    name: "OpenAPIAsyncHTTPClient",
                    package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux, .windows, .android, .openbsd, .wasi])
                ),
                .product(
                    name: "AsyncHTTPClient",
                    package: "async-http-client",
                    condition: .when(platforms: [.linux, .windows, .android, .openbsd, .wasi])
                ),
            ],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(
            name: "TripHistoryListModel",
            dependencies: ["TripHistoryClient"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "trip-history-client",
            dependencies: [
                "TripHistoryClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryClientTests",
            dependencies: [
                "TripHistoryClient",
                "TripHistoryListModel",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TripHistoryClientIntegrationTests",
            dependencies: [
                "TripHistoryClient",
                "TripHistoryListModel",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
