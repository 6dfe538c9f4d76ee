extension NewTrip {
    /// A canonical text of every recorded field: two requests with the same idempotency key are the same
    /// request exactly when their fingerprints are equal, whatever their JSON key order or spacing.
    public var fingerprint: String {
        let d = details
        let fields: [String] =
            [
                riderID.description, d.status.rawValue, d.product, d.city, d.timeZone,
                String(Timestamp.micros(d.requestedAt)), String(Timestamp.micros(d.startedAt)),
                d.completedAt.map { String(Timestamp.micros($0)) } ?? "-",
                "\(d.pickup.latitude)", "\(d.pickup.longitude)", d.pickup.address,
                "\(d.dropoff.latitude)", "\(d.dropoff.longitude)", d.dropoff.address,
                String(d.distanceMeters), String(d.durationSeconds), String(d.fare.amountMinor), d.fare.currency.code,
            ] + receiptFields
        // Length prefixes keep field boundaries unambiguous whatever the text contains.
        return fields.map { "\($0.utf8.count):\($0)" }.joined(separator: "|")
    }

    /// The receipt's parts; a trip without any has none, so its fingerprint is the one it always had.
    private var receiptFields: [String] {
        guard !receipt.isEmpty else { return [] }
        var fields = ["receipt"]
        fields.append(
            receipt.breakdown.map { $0.map { "\($0.kind.rawValue)=\($0.amountMinor)" }.joined(separator: ",") } ?? "-")
        if let payment = receipt.payment {
            fields += [payment.method.rawValue, payment.brand ?? "-", payment.last4 ?? "-"]
        } else {
            fields.append("-")
        }
        if let driver = receipt.driver {
            fields.append(driver.firstName)
            if let vehicle = driver.vehicle {
                fields += [vehicle.make, vehicle.model, vehicle.color, vehicle.plate]
            } else {
                fields.append("-")
            }
        } else {
            fields.append("-")
        }
        fields.append(receipt.route?.polyline ?? "-")
        return fields
    }
}
