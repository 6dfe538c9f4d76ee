/// Who is asking, as proven by a verified token.
public enum Caller: Hashable, Sendable {
    /// A rider, who sees only their own trips.
    case rider(RiderID)
    /// An analyst, who reads every rider's trips.
    case analyst(subject: String)
    /// A backend service, which records trips and reads nothing.
    case service(subject: String)
    /// A privacy officer's tool, which erases a rider's data and reads nothing.
    case privacy(subject: String)
}
