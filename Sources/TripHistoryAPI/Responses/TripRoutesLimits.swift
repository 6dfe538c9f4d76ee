/// Bounds on what one request may ask of the trip routes.
public enum TripRoutesLimits {
    /// Largest accepted `POST /v1/trips` body; a trip is well under 2 KiB.
    public static let maximumBodyBytes = 64 * 1024
}
