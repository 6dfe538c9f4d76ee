import NIOConcurrencyHelpers
import NIOPosix
import ServiceLifecycle

/// A service's blocking loop (libpq calls) on a thread of its own, stopped when the service group shuts down
/// gracefully or the task is cancelled.
enum DedicatedThread {
    /// Runs `loop` on a new thread until it returns; `loop` must return soon after `stop` turns true. Throws
    /// only when the thread could not run it.
    static func run(_ loop: @escaping @Sendable (NIOLockedValueBox<Bool>) -> Void) async throws {
        let stop = NIOLockedValueBox(false)
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        let outcome = await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await Result { try await thread.runIfActive { loop(stop) } }
            } onCancel: {
                stop.withLockedValue { $0 = true }
            }
        } onGracefulShutdown: {
            stop.withLockedValue { $0 = true }
        }
        try? await thread.shutdownGracefully()
        try outcome.get()
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
