import Foundation

extension Duration {
    /// The duration in seconds, for arithmetic with `Date`.
    var timeInterval: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
