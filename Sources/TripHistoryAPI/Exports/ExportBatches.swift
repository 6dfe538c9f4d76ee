import Tracing
import TripHistoryDomain

/// The batches of one export as its stream reads them. With a tracer and a traced request, each read of the
/// database is an `export.batch` span under the request's span, with the batch's index (from 0) and its row
/// count, and the read's statement spans under it. The request span ends once the response's head is ready,
/// so its context is kept from the start of the export rather than read from the task that streams the body.
struct ExportBatches: Sendable {
    /// The span attribute holding a batch's index in its export, from 0.
    static var indexAttribute: String { "trip_history.export.batch.index" }
    /// The span attribute holding the number of trips a batch read.
    static var rowsAttribute: String { "trip_history.export.batch.rows" }

    private var batches: TripBatches
    private let tracing: (tracer: any Tracer, context: ServiceContext)?
    private var index = 0

    /// `batches` traced with `tracer` when given and the current context is a traced request's.
    init(_ batches: TripBatches, tracer: (any Tracer)?) {
        self.batches = batches
        tracing = tracer.flatMap { tracer in
            guard let context = ServiceContext.current, context.requestSpan != nil else { return nil }
            return (tracer, context)
        }
    }

    /// The next non-empty batch, or nil once every trip was returned (`TripBatches.next()`).
    mutating func next() async throws -> [Trip]? {
        // Only a read of the database is a span: a finished export's last call reads nothing.
        guard let tracing, !batches.isFinished else { return try await batches.next() }
        var batches = self.batches
        let index = self.index
        let trips = try await tracing.tracer.withSpan("export.batch", context: tracing.context) { span in
            span.attributes[Self.indexAttribute] = index
            let trips = try await batches.next()
            span.attributes[Self.rowsAttribute] = trips?.count ?? 0
            return trips
        }
        self.batches = batches
        self.index += 1
        return trips
    }
}
