import Foundation
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Blocking work that needs a thread of its own (a libpq loop or a wait with no timeout), made one way:
/// `start(name:_:)` for a thread that ends by itself, `run(name:_:)` for a service's loop stopped with the
/// service group. Work on a lent connection runs on its pool's `NIOThreadPool` instead.
enum DedicatedThread {
    /// Runs `body` on a new thread named `name` (when given), without waiting for it.
    static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        Thread {
            // Named from inside: on Linux only the thread itself can set its system-visible name.
            if let name { Thread.current.name = name }
            body()
        }.start()
    }

    /// Runs `loop` on a new thread until it returns; `loop` must return soon after `stop` turns true, which it
    /// does when the service group shuts down gracefully or the task is cancelled.
    static func run(name: String, _ loop: @escaping @Sendable (NIOLockedValueBox<Bool>) -> Void) async {
        let stop = NIOLockedValueBox(false)
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                    start(name: name) {
                        loop(stop)
                        finished.resume()
                    }
                }
            } onCancel: {
                stop.withLockedValue { $0 = true }
            }
        } onGracefulShutdown: {
            stop.withLockedValue { $0 = true }
        }
    }
}
