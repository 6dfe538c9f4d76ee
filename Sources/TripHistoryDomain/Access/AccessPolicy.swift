/// Who may do what. One place, so every use case applies the same rules.
///
/// Each rule returns a grant, and each use case takes the grant instead of the caller: access is decided
/// once per request, where the request is checked (before any cache), and a use case cannot be reached
/// without that decision.
public enum AccessPolicy {
    /// Readers of a rider's trips: the rider themself and analysts. Another rider gets `notFound`, the same
    /// answer as for a rider with no such trip, so ids cannot be probed; a service or the privacy role gets `forbidden`.
    public static func read(riderID: RiderID, caller: Caller) throws(TripHistoryError) -> RiderReadGrant {
        switch caller {
        case .rider(let own) where own == riderID: return RiderReadGrant(riderID: riderID, caller: caller)
        case .rider: throw .notFound
        case .analyst: return RiderReadGrant(riderID: riderID, caller: caller)
        case .service, .privacy: throw .forbidden
        }
    }

    /// Readers of one trip (its detail or receipt): those of `read`, and backend services, which adjust trips
    /// and must be able to read the version they send back in `If-Match`. A service still lists, exports and
    /// follows no rider's trips.
    public static func readTrip(riderID: RiderID, caller: Caller) throws(TripHistoryError) -> RiderReadGrant {
        if case .service = caller { return RiderReadGrant(riderID: riderID, caller: caller) }
        return try read(riderID: riderID, caller: caller)
    }

    /// Only the privacy role erases a rider's data.
    public static func erase(caller: Caller) throws(TripHistoryError) -> ErasureGrant {
        guard case .privacy(let subject) = caller else { throw .forbidden }
        return ErasureGrant(subject: subject)
    }

    /// Only backend services record trips and adjustments.
    public static func record(caller: Caller) throws(TripHistoryError) -> RecordGrant {
        guard case .service(let subject) = caller else { throw .forbidden }
        return RecordGrant(subject: subject)
    }

    /// Cross-rider reads (the analyst list, exports, stats, the changes feed) are for analysts only.
    public static func analyze(caller: Caller) throws(TripHistoryError) -> AnalystGrant {
        guard case .analyst(let subject) = caller else { throw .forbidden }
        return AnalystGrant(subject: subject)
    }
}

/// `AccessPolicy.read`'s decision that `caller` may read `riderID`'s trips. Grants have only the internal
/// memberwise initializer, so outside this module only `AccessPolicy` makes them.
public struct RiderReadGrant: Hashable, Sendable {
    public let riderID: RiderID
    public let caller: Caller
}

/// `AccessPolicy.record`'s decision that the backend service `subject` may record trips and adjustments.
public struct RecordGrant: Hashable, Sendable {
    public let subject: String

    public var caller: Caller { .service(subject: subject) }
}

/// `AccessPolicy.analyze`'s decision that the analyst `subject` may read across riders.
public struct AnalystGrant: Hashable, Sendable {
    public let subject: String

    public var caller: Caller { .analyst(subject: subject) }
}

/// `AccessPolicy.erase`'s decision that the privacy role's `subject` may erase riders.
public struct ErasureGrant: Hashable, Sendable {
    public let subject: String
}
