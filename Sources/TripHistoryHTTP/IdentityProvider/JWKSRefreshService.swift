public import ServiceLifecycle
public import TripHistoryAPI

/// Keeps the identity provider's keys fresh for as long as the application runs: `JWKSKeySource.run()` as a
/// service, so it starts and stops with the server rather than from an initializer.
public struct JWKSRefreshService: Service {
    public let keys: JWKSKeySource

    public init(keys: JWKSKeySource) {
        self.keys = keys
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await keys.run()
        }
    }
}
