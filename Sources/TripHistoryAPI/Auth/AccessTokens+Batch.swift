public import Foundation

extension AccessTokens {
    /// Issues one rider token per id of `riders`, in id order, and hands them to `write` as lines
    /// `rider_id<TAB>token\n`, batched into chunks of about `chunkBytes` so a caller can stream 100,000 tokens
    /// to a file without holding them. Every token expires `timeToLive` after `now`. Rethrows what `write` throws.
    public func writeRiderTokens(
        for riders: RiderIDRange, timeToLive: Duration, now: Date = Date(), chunkBytes: Int = 1 << 20,
        write: ([UInt8]) throws -> Void
    ) async throws {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkBytes + 1024)
        for rider in riders.first...riders.last {
            let token = try await issue(role: .rider, subject: String(rider), timeToLive: timeToLive, now: now)
            chunk.append(contentsOf: String(rider).utf8)
            chunk.append(UInt8(ascii: "\t"))
            chunk.append(contentsOf: token.utf8)
            chunk.append(UInt8(ascii: "\n"))
            if chunk.count >= chunkBytes {
                try write(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { try write(chunk) }
    }
}
