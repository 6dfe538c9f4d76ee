import TripHistoryDomain
import TripHistoryPresentation

extension JSONWriter {
    /// Writes the `Receipt` object of trip `tripID`: its lines, amounts, payment and summary as displayed in
    /// `receipt.locale`. Optional members are left out rather than written as null.
    mutating func receipt(_ receipt: ReceiptDisplay, tripID: TripID) {
        beginObject()
        key("trip_id")
        quotedInt(tripID.rawValue)
        field("locale", receipt.locale.identifier)
        key("lines")
        beginArray()
        for line in receipt.lines {
            beginObject()
            field("kind", line.kind)
            amountMembers(line.amount)
            endObject()
        }
        endArray()
        amount("fare", receipt.fare)
        if let tips = receipt.tips { amount("tips", tips) }
        if let refunds = receipt.refunds { amount("refunds", refunds) }
        if let corrections = receipt.corrections { amount("corrections", corrections) }
        amount("total", receipt.total)
        field("currency", receipt.currency)
        if let payment = receipt.payment {
            key("payment")
            beginObject()
            field("method", payment.method)
            field("label", payment.label)
            endObject()
        }
        let trip = receipt.trip
        key("trip")
        beginObject()
        field("date", trip.date)
        field("time", trip.time)
        field("from", trip.from)
        field("to", trip.to)
        field("distance", trip.distance)
        field("duration", trip.duration)
        if let driver = trip.driver { field("driver", driver) }
        if let vehicle = trip.vehicle { field("vehicle", vehicle) }
        endObject()
        endObject()
    }

    private mutating func amount(_ name: StaticString, _ amount: ReceiptAmount) {
        key(name)
        beginObject()
        amountMembers(amount)
        endObject()
    }

    private mutating func amountMembers(_ amount: ReceiptAmount) {
        field("label", amount.label)
        field("amount_minor", amount.amountMinor)
        field("amount", amount.amount)
    }
}
