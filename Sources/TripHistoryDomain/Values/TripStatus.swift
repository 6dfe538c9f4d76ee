/// How a trip ended. Only finished trips are recorded, so there is no "in progress".
public enum TripStatus: String, Sendable, CaseIterable, Hashable {
    case completed
    case canceled
}
