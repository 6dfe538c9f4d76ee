/// The batches of an export, newest first. Each `next()` runs one short keyset read for the trips strictly
/// older than the last one returned, so an export of any size holds one batch in memory, and stopping the
/// iteration (e.g. when the client went away) stops the database work at once.
public struct TripBatches: Sendable {
    /// Up to `limit` trips strictly older than `after` (from the newest when nil), newest first.
    typealias Read = @Sendable (_ after: TripKey?, _ limit: Int) async throws -> [Trip]

    private let read: Read
    private let batchSize: Int
    /// The key of the last trip handed out; the next batch starts strictly older.
    public private(set) var last: TripKey?
    /// Whether every trip was returned, so `next()` reads nothing more and returns nil.
    public private(set) var isFinished = false

    init(after: TripKey?, batchSize: Int, read: @escaping Read) {
        self.read = read
        self.batchSize = batchSize
        self.last = after
    }

    /// The next non-empty batch, newest first, or nil once every trip was returned.
    public mutating func next() async throws -> [Trip]? {
        guard !isFinished else { return nil }
        let rows = try await read(last, batchSize)
        // A short batch is the last one, which saves the empty query at the end.
        if rows.count < batchSize { isFinished = true }
        guard let tail = rows.last else { return nil }
        last = TripKey(tail)
        return rows
    }
}
