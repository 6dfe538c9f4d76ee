import TripHistoryDomain
import TripHistoryPresentation

extension JSONWriter {
    /// Writes one trip as the API's `Trip` object, with its display strings.
    mutating func trip(_ trip: Trip, display: TripDisplay) {
        let details = trip.details
        beginObject()
        key("id")
        quotedInt(trip.id.rawValue)
        key("rider_id")
        quotedInt(trip.riderID.rawValue)
        field("status", details.status.rawValue)
        field("product", details.product)
        field("city", details.city)
        field("time_zone", details.timeZone)
        key("requested_at")
        timestamp(details.requestedAt)
        key("started_at")
        timestamp(details.startedAt)
        key("completed_at")
        if let completedAt = details.completedAt { timestamp(completedAt) } else { null() }
        key("pickup")
        place(details.pickup)
        key("dropoff")
        place(details.dropoff)
        field("distance_m", details.distanceMeters)
        field("duration_s", details.durationSeconds)
        key("fare")
        beginObject()
        field("amount_minor", details.fare.amountMinor)
        field("currency", details.fare.currency.code)
        endObject()
        key("display")
        beginObject()
        field("title", display.title)
        field("date", display.date)
        field("time", display.time)
        field("fare", display.fare)
        field("distance", display.distance)
        field("duration", display.duration)
        field("status", display.status)
        endObject()
        endObject()
    }

    private mutating func place(_ place: Place) {
        beginObject()
        key("lat")
        double(place.latitude)
        key("lon")
        double(place.longitude)
        field("address", place.address)
        endObject()
    }
}
