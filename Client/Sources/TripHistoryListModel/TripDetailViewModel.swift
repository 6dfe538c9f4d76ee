import TripHistoryClient

#if canImport(Observation)
import Observation
#endif

/// What a trip's detail screen shows.
public enum TripDetailState: Sendable, Equatable {
    /// Nothing asked yet.
    case idle
    /// The trip is on its way.
    case loading
    /// The trip, with its display strings.
    case loaded(Trip)
    /// The request failed; `canRetry` when repeating it may help. A trip of another rider is `isNotFound`.
    case failed(TripHistoryError, canRetry: Bool)
}

/// Loads one trip for a detail screen, with its receipt (`receipt`).
///
/// Observable (Observation), so it needs iOS 17, macOS 14, tvOS 17 or watchOS 10.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
#if canImport(Observation)
@Observable
#endif
@MainActor
public final class TripDetailViewModel {
    /// What to show.
    public private(set) var state: TripDetailState = .idle

    /// The loaded trip's receipt: the fare's line items, tips, refunds, corrections and total; nil until the
    /// trip is loaded.
    public var receipt: TripReceipt? {
        guard case .loaded(let trip) = state else { return nil }
        return TripReceipt(trip: trip)
    }

    private let client: TripHistoryClient
    private let rider: String
    private let tripID: String
    private let timeZone: String?

    /// The loader of trip `tripID` of `rider`, with display strings in `timeZone` (the trip's own when nil).
    public init(client: TripHistoryClient, rider: String, tripID: String, timeZone: String? = nil) {
        self.client = client
        self.rider = rider
        self.tripID = tripID
        self.timeZone = timeZone
    }

    /// Loads the trip, unless it is loading or loaded already; after a failure it tries again.
    public func load() async {
        switch state {
        case .loading, .loaded: return
        case .idle, .failed: break
        }
        state = .loading
        do {
            state = .loaded(try await client.trip(rider: rider, id: tripID, timeZone: timeZone))
        } catch let error as TripHistoryError {
            state = .failed(error, canRetry: error.isRecoverable)
        } catch {
            state = .idle
        }
    }
}
