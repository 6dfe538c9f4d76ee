import Logging
import NIOCore
import TripHistoryDomain

/// The body of a streamed export, shared by the analyst export and the rider's own: the first batch is read
/// before the response starts, so a refused or failing query still gets a problem response; each later batch
/// is read while the one before it is encoded and written, and a write failing (the client went away) ends
/// the loop and cancels that read. A failure after the head was sent ends the response without its last
/// chunk, which clients see as a truncated transfer. The export slot is held for as long as the body exists, and
/// the body ends so once `timeLimit` has passed since it started: a client reading just fast enough for
/// the connection's rate rule cannot keep a slot for hours.
struct TripExportStream: Sendable {
    /// Bytes gathered before the stream writes them out: big enough for few writes, small enough that the
    /// first bytes leave soon and little is buffered per connection.
    static var chunkBytes: Int { 64 * 1024 }

    /// How one trip is written: a CSV record (its text cells guarded against formulas or raw), or one JSON
    /// object and its line break.
    enum Encoding: Sendable {
        case csv(header: [String], guardsFormulas: Bool, record: @Sendable (inout CSVWriter, Trip) -> Void)
        case ndjson(@Sendable (inout JSONWriter, Trip) -> Void)
    }

    let batches: ExportBatches
    let first: [Trip]?
    let slot: ConcurrencySlots.Slot
    let timeLimit: Duration
    let encoding: Encoding
    let logger: Logger

    /// Why an export ended before its last row.
    struct TimeLimitReached: Error, CustomStringConvertible {
        let timeLimit: Duration
        var description: String { "the export ran longer than its time limit (\(timeLimit))" }
    }

    var body: APIBodyStream {
        APIBodyStream { [self] writer in
            _ = slot
            let deadline = ContinuousClock.now + timeLimit
            // Every chunk is written through this, so the time limit is checked as often as bytes leave.
            func write(_ buffer: ByteBuffer) async throws {
                guard ContinuousClock.now < deadline else { throw TimeLimitReached(timeLimit: timeLimit) }
                try await writer.write(buffer)
            }
            var batches = self.batches
            // One buffer per stream, flushed as a chunk whenever it passes chunkBytes.
            var guardsFormulas = true
            if case .csv(_, let guards, _) = encoding { guardsFormulas = guards }
            var csv = CSVWriter(capacity: Self.chunkBytes + 4096, guardsFormulas: guardsFormulas)
            var json = JSONWriter(capacity: Self.chunkBytes + 4096)
            if case .csv(let header, _, _) = encoding { csv.record(header) }
            var batch = first
            var rows = 0
            // The read of the next batch, started before the current one is encoded, so the database and the
            // encoder overlap. If the client goes away it is cancelled (a read not yet begun never starts) and
            // awaited, so no read of this export outlives it or the export slot it holds.
            var prefetch: Task<([Trip]?, ExportBatches), any Error>?
            do {
                while let trips = batch {
                    prefetch = Task { [batches] in
                        try Task.checkCancellation()
                        var batches = batches
                        let next = try await batches.next()
                        return (next, batches)
                    }
                    for trip in trips {
                        switch encoding {
                        case .csv(_, _, let record):
                            record(&csv, trip)
                            if csv.bytes.count >= Self.chunkBytes {
                                try await write(ByteBuffer(bytes: csv.bytes))
                                csv.clear()
                            }
                        case .ndjson(let line):
                            line(&json, trip)
                            json.endLine()
                            if json.byteCount >= Self.chunkBytes {
                                try await write(json.byteBuffer)
                                json.clear()
                            }
                        }
                    }
                    rows += trips.count
                    (batch, batches) = try await prefetch!.value
                    prefetch = nil
                }
                let rest: ByteBuffer
                switch encoding {
                case .csv: rest = ByteBuffer(bytes: csv.bytes)
                case .ndjson: rest = json.byteBuffer
                }
                if rest.readableBytes > 0 { try await write(rest) }
            } catch {
                prefetch?.cancel()
                _ = try? await prefetch?.value
                logger.info("export ended early", metadata: ["rows": "\(rows)", "error": "\(error)"])
                throw error
            }
        }
    }
}

/// The bounds every streamed export runs under: how many may run at once, the analysts' and the riders' in
/// slots of their own (so riders reading their exports slowly cannot hold every analyst's slot, nor the
/// reverse), and how long one may last.
public struct ExportLimits: Sendable {
    /// Exports of analysts (and of services and the privacy desk), per caller and in all.
    public let analystSlots: ConcurrencySlots
    /// Riders' exports of their own trips, one per rider at a time and `riderSlots.capacity` in all.
    public let riderSlots: ConcurrencySlots
    /// How long one export may stream before it is ended.
    public let timeLimit: Duration

    public init(analystSlots: ConcurrencySlots, riderSlots: ConcurrencySlots, timeLimit: Duration) {
        self.analystSlots = analystSlots
        self.riderSlots = riderSlots
        self.timeLimit = timeLimit
    }

    /// What a 429 for a full export limit suggests waiting.
    static var retryAfterSeconds: Int { 10 }

    /// A slot for an export by `caller`, from the riders' slots for a rider and the analysts' for anyone else,
    /// or the 429 saying which limit is full.
    func slot(for caller: Caller) throws(Problem) -> ConcurrencySlots.Slot {
        let (slots, kind) =
            if case .rider = caller { (riderSlots, "riders' exports") } else { (analystSlots, "exports") }
        switch slots.acquire(for: RateLimitKey(caller)) {
        case .success(let slot): return slot
        case .failure(.full):
            throw Problem.tooManyRequests(
                "At most \(slots.capacity) \(kind) may run at once; retry when one has finished.",
                retryAfterSeconds: Self.retryAfterSeconds)
        case .failure(.callerBusy):
            throw Problem.tooManyRequests(
                "At most \(slots.perCaller) of your exports may run at once; retry when yours has finished.",
                retryAfterSeconds: Self.retryAfterSeconds)
        }
    }

    /// The stream of an export holding `slot`.
    func stream(
        batches: ExportBatches, first: [Trip]?, slot: ConcurrencySlots.Slot, encoding: TripExportStream.Encoding,
        logger: Logger
    ) -> TripExportStream {
        TripExportStream(
            batches: batches, first: first, slot: slot, timeLimit: timeLimit, encoding: encoding, logger: logger)
    }
}
