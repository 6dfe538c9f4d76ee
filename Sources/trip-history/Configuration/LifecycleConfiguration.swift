import ArgumentParser

/// The bounds of a trip's life after the ride, read from the environment:
///
/// - `TRIP_HISTORY_TIP_WINDOW_DAYS`: days after a trip's completion during which tips are accepted (default 30).
/// - `TRIP_HISTORY_CHANGES_RETENTION_DAYS`: days the changes feed keeps changes; an older `since` token gets
///   410 (default 30, at least 30).
struct LifecycleConfiguration: Sendable {
    var tipWindowDays = 30
    var changesRetentionDays = 30

    /// The defaults, overridden by whichever variables are set. Throws on a value out of its range.
    static func load(environment: [String: String]) throws -> LifecycleConfiguration {
        var configuration = LifecycleConfiguration()
        if let days = try days(environment, "TRIP_HISTORY_TIP_WINDOW_DAYS", 1...3650) {
            configuration.tipWindowDays = days
        }
        if let days = try days(environment, "TRIP_HISTORY_CHANGES_RETENTION_DAYS", 30...3650) {
            configuration.changesRetentionDays = days
        }
        return configuration
    }

    private static func days(_ environment: [String: String], _ name: String, _ range: ClosedRange<Int>) throws -> Int?
    {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ValidationError(
                "\(name) must be a whole number of days from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }
}
