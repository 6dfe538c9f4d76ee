/// A trip as the "Your trips" list and the trip detail screen show it: every field is a finished,
/// localized string that a client displays as is, without further formatting.
public struct TripDisplay: Sendable, Hashable {
    /// Where the trip went, e.g. "Trip to 1 Market St".
    public let title: String
    /// The request day in the display time zone, e.g. "Mar 1, 2026".
    public let date: String
    /// The request time of day in the display time zone, e.g. "2:05 PM".
    public let time: String
    /// The fare with its currency as the locale writes it, e.g. "$18.34".
    public let fare: String
    /// The driven distance in the locale's road unit, e.g. "3.2 mi" or "5,2 km".
    public let distance: String
    /// The ride's length in hours and minutes, e.g. "21 min".
    public let duration: String
    /// How the trip ended, e.g. "Completed".
    public let status: String

    public init(
        title: String, date: String, time: String, fare: String, distance: String, duration: String, status: String
    ) {
        self.title = title
        self.date = date
        self.time = time
        self.fare = fare
        self.distance = distance
        self.duration = duration
        self.status = status
    }
}
