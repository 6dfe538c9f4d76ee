import ServiceLifecycle

/// Runs `body` at once and then every `interval` until the service group shuts down or the task is cancelled;
/// a graceful shutdown also ends the wait between two runs. The loop of the jobs that delete what expired.
func repeatUntilShutdown(every interval: Duration, _ body: () async -> Void) async {
    while !Task.isShuttingDownGracefully, !Task.isCancelled {
        await body()
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
    }
}
