/// Who may do what. One place, so every use case applies the same rules.
public enum AccessPolicy {
    /// Readers of a rider's trips: the rider themself and analysts. Another rider gets `notFound`, the same
    /// answer as for a rider with no such trip, so ids cannot be probed; a service or the privacy role gets `forbidden`.
    public static func checkCanRead(riderID: RiderID, caller: Caller) throws(TripHistoryError) {
        switch caller {
        case .rider(let own) where own == riderID: return
        case .rider: throw .notFound
        case .analyst: return
        case .service, .privacy: throw .forbidden
        }
    }

    /// Only the privacy role erases a rider's data.
    public static func checkCanErase(caller: Caller) throws(TripHistoryError) {
        guard case .privacy = caller else { throw .forbidden }
    }

    /// Only backend services record trips.
    public static func checkCanRecord(caller: Caller) throws(TripHistoryError) {
        guard case .service = caller else { throw .forbidden }
    }

    /// Cross-rider reads (the analyst list, exports, stats) are for analysts only.
    public static func checkIsAnalyst(caller: Caller) throws(TripHistoryError) {
        guard case .analyst = caller else { throw .forbidden }
    }
}
