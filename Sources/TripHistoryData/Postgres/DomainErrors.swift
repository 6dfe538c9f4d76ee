import Logging
import TripHistoryDomain

/// Runs `body` of a repository operation and turns its failures into the domain's errors, the one place the
/// repositories do so: the domain's own errors and cancellation pass through, a `PostgresError` that
/// `translate` recognises becomes what it returns, and any other failure (pool timeout, connection lost,
/// server error) is logged with `operation` and becomes `TripHistoryError.unavailable(retryAfterSeconds: 1)`.
/// A caller the pool shed (`PostgresPoolError.overloaded`, `.readQueueFull`) becomes the same error, logged only at debug
/// level: under overload a warning per refused request would add a log flood to it.
/// SQL and server messages are only logged, never returned.
func withDomainErrors<T>(
    _ operation: String, logger: Logger, translate: (PostgresError) -> (any Error)? = { _ in nil },
    _ body: () async throws -> T
) async throws -> T {
    do {
        return try await body()
    } catch let error as TripHistoryError {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch let error as AnalystQueryError {
        throw error
    } catch is CancellationError {
        throw CancellationError()
    } catch PostgresPoolError.overloaded, PostgresPoolError.readQueueFull {
        logger.debug("database pool overloaded", metadata: ["operation": "\(operation)"])
        throw TripHistoryError.unavailable(retryAfterSeconds: 1)
    } catch let error as PostgresError {
        if let translated = translate(error) { throw translated }
        throw unavailable(operation, error, logger: logger)
    } catch {
        throw unavailable(operation, error, logger: logger)
    }
}

private func unavailable(_ operation: String, _ error: any Error, logger: Logger) -> TripHistoryError {
    logger.warning("database unavailable", metadata: ["operation": "\(operation)", "error": "\(error)"])
    return .unavailable(retryAfterSeconds: 1)
}
