/// A readers-writer gate over the shared test database: ordinary tests enter together, the test that
/// restarts PostgreSQL enters alone so it cannot break tests running beside it.
public actor DataDatabaseGate {
    public static let shared = DataDatabaseGate()

    private var readers = 0
    private var writer = false
    private var waiting: [(exclusive: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    public nonisolated func withShared<T>(_ body: () async throws -> T) async throws -> T {
        try await with(exclusive: false, body)
    }

    public nonisolated func withExclusive<T>(_ body: () async throws -> T) async throws -> T {
        try await with(exclusive: true, body)
    }

    private nonisolated func with<T>(exclusive: Bool, _ body: () async throws -> T) async throws -> T {
        await enter(exclusive: exclusive)
        do {
            let value = try await body()
            await leave(exclusive: exclusive)
            return value
        } catch {
            await leave(exclusive: exclusive)
            throw error
        }
    }

    private func enter(exclusive: Bool) async {
        if canEnter(exclusive: exclusive) && waiting.isEmpty {
            admit(exclusive: exclusive)
            return
        }
        await withCheckedContinuation { waiting.append((exclusive, $0)) }
    }

    private func canEnter(exclusive: Bool) -> Bool {
        exclusive ? (!writer && readers == 0) : !writer
    }

    private func admit(exclusive: Bool) {
        if exclusive { writer = true } else { readers += 1 }
    }

    private func leave(exclusive: Bool) {
        if exclusive { writer = false } else { readers -= 1 }
        while let first = waiting.first, canEnter(exclusive: first.exclusive) {
            waiting.removeFirst()
            admit(exclusive: first.exclusive)
            first.continuation.resume()
        }
    }
}
