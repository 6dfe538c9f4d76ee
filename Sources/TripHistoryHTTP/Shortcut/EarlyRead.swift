public import TripHistoryAPI

/// A request the early-read handler answers: the API's answer, with the route template its request metrics
/// count it under.
public struct EarlyRead: Sendable {
    public let route: String
    public let answer: EarlyAnswer

    public init(route: String, answer: EarlyAnswer) {
        self.route = route
        self.answer = answer
    }
}
