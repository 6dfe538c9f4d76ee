import TripHistoryDomain
import TripHistoryPresentation

extension JSONWriter {
    /// Writes one trip as the API's `Trip` object, with its display strings; a trip read for its detail (its
    /// `adjustments` loaded) also gets the receipt's parts and the ledger, and with `breakdown` (an analyst
    /// export that asked for it) any trip gets its `fare.breakdown`.
    mutating func trip(_ trip: Trip, display: TripDisplay, breakdown writesBreakdown: Bool = false) {
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
        let lifecycle = trip.lifecycle
        field("version", lifecycle.version)
        key("recorded_at")
        timestamp(lifecycle.recordedAt)
        key("updated_at")
        timestamp(lifecycle.updatedAt)
        key("fare")
        beginObject()
        field("amount_minor", details.fare.amountMinor)
        field("currency", details.fare.currency.code)
        field("total_minor", trip.totalMinor)
        field("tips_minor", lifecycle.totals.tipsMinor)
        field("refunds_minor", lifecycle.totals.refundsMinor)
        if trip.adjustments != nil || writesBreakdown, let lines = trip.receipt.breakdown {
            key("breakdown")
            breakdown(lines)
        }
        endObject()
        if let adjustments = trip.adjustments {
            receipt(trip.receipt)
            key("adjustments")
            self.adjustments(adjustments)
        }
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

    /// A fare breakdown as the API's array of `{kind, amount_minor}`.
    mutating func breakdown(_ lines: [FareLine]) {
        beginArray()
        for line in lines {
            beginObject()
            field("kind", line.kind.rawValue)
            field("amount_minor", line.amountMinor)
            endObject()
        }
        endArray()
    }

    /// A ledger as the API's array of adjustments, oldest first.
    mutating func adjustments(_ adjustments: [Adjustment]) {
        beginArray()
        for adjustment in adjustments {
            beginObject()
            key("id")
            quotedInt(adjustment.id.rawValue)
            field("kind", adjustment.kind.rawValue)
            field("amount_minor", adjustment.amountMinor)
            field("reason", adjustment.reason)
            key("created_at")
            timestamp(adjustment.createdAt)
            endObject()
        }
        endArray()
    }

    /// The payment, driver and route, each only when recorded.
    private mutating func receipt(_ receipt: TripReceipt) {
        if let payment = receipt.payment {
            key("payment")
            beginObject()
            field("method", payment.method.rawValue)
            if let brand = payment.brand { field("brand", brand) }
            if let last4 = payment.last4 { field("last4", last4) }
            endObject()
        }
        if let driver = receipt.driver {
            key("driver")
            beginObject()
            field("first_name", driver.firstName)
            if let vehicle = driver.vehicle {
                key("vehicle")
                beginObject()
                field("make", vehicle.make)
                field("model", vehicle.model)
                field("color", vehicle.color)
                field("plate", vehicle.plate)
                endObject()
            }
            endObject()
        }
        if let route = receipt.route {
            key("route")
            beginObject()
            field("polyline", route.polyline)
            endObject()
        }
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
