/// Writes the seed trips as COPY text rows, rider by rider, into a caller's buffer. Each rider's trips come
/// from a generator seeded by `(seed, rider)`, so the rows never depend on chunk boundaries.
struct SeedTripGenerator {
    /// A city's text fields already escaped for COPY, so rows are built from byte copies only.
    private struct EncodedCity {
        let city: SeedCity
        let name: [UInt8]
        let timeZone: [UInt8]
        let currency: [UInt8]
        let streets: [[UInt8]]
        let landmarks: [[UInt8]]
    }

    private static let products: [(name: [UInt8], percentMultiplier: Int64)] = [
        (Array("UberX".utf8), 100), (Array("Comfort".utf8), 130), (Array("Black".utf8), 200), (Array("Pool".utf8), 80),
    ]
    private static let microsPerSecond: Int64 = 1_000_000
    /// How far before the window's end the request times reach.
    static let window: Int64 = 2 * 365 * 86_400 * microsPerSecond

    private let cities: [EncodedCity]
    private let lastRider: Int
    private let distribution: SeedDistribution
    private let seed: UInt64
    private let windowEndMicros: Int64

    private var rider: Int
    private var tripIndex = 0
    private var tripsOfRider = 0
    private var random = SplitMix64(seed: 0)
    private var homeCity = 0
    private var previousRequestedAt: Int64 = 0

    init(riders: ClosedRange<Int>, distribution: SeedDistribution, seed: UInt64, windowEndMicros: Int64) {
        self.rider = riders.lowerBound
        self.lastRider = riders.upperBound
        self.distribution = distribution
        self.seed = seed
        self.windowEndMicros = windowEndMicros
        self.cities = SeedCity.all.map { city in
            EncodedCity(
                city: city, name: CopyText.escaped(city.name), timeZone: CopyText.escaped(city.timeZone),
                currency: CopyText.escaped(city.currency), streets: city.streets.map(CopyText.escaped),
                landmarks: city.landmarks.map(CopyText.escaped)
            )
        }
        startRider()
    }

    private(set) var rowsWritten = 0

    /// Appends rows until `buffer` holds at least `chunkBytes` or every row is written; false when done.
    mutating func fill(_ buffer: inout [UInt8], chunkBytes: Int) -> Bool {
        while rider <= lastRider {
            if tripIndex >= tripsOfRider {
                rider += 1
                startRider()
                continue
            }
            appendTrip(to: &buffer)
            tripIndex += 1
            rowsWritten += 1
            if buffer.count >= chunkBytes { return rider <= lastRider }
        }
        return false
    }

    private mutating func startRider() {
        tripIndex = 0
        guard rider <= lastRider else { return }
        tripsOfRider = distribution.tripCount(rider: rider, seed: seed)
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: rider) &* 0xD1B5_4A32_D192_ED03))
        random = SplitMix64(seed: mixer.next())
        homeCity = random.below(cities.count)
        previousRequestedAt = windowEndMicros - random.between(0...Self.window)
    }

    private mutating func appendTrip(to out: inout [UInt8]) {
        // Most riders ride in their home city; some travel.
        let cityIndex = random.chance(percent: 85) ? homeCity : random.below(cities.count)
        let encoded = cities[cityIndex]
        let city = encoded.city
        let canceled = random.chance(percent: 5)
        let product = Self.products[random.below(Self.products.count)]

        // A few trips share their request time with the previous one (a re-request in the same second).
        let requestedAt: Int64
        if tripIndex > 0 && random.chance(percent: 3) {
            requestedAt = previousRequestedAt
        } else {
            let seconds =
                windowEndMicros / Self.microsPerSecond - random.between(1...(Self.window / Self.microsPerSecond))
            let fraction = random.chance(percent: 50) ? random.between(0...999_999) : 0
            requestedAt = seconds * Self.microsPerSecond + fraction
        }
        previousRequestedAt = requestedAt
        let startedAt = requestedAt + random.between(60...900) * Self.microsPerSecond

        let distance: Int64
        let duration: Int64
        let fare: Int64
        if canceled {
            distance = 0
            duration = 0
            fare = random.chance(percent: 50) ? city.cancellationFee : 0
        } else {
            let spread = random.unit()
            distance = 700 + Int64(spread * spread * 28_000) + random.between(0...300)
            duration = distance / city.speed + random.between(0...240)
            let raw = city.baseFare + city.perKilometre * distance / 1000 + city.perMinute * duration / 60
            fare = max(city.minimumFare, raw * product.percentMultiplier / 100)
        }

        CopyText.appendInt(Int64(rider), to: &out)
        out.append(0x09)
        out.append(contentsOf: canceled ? Self.canceledText : Self.completedText)
        out.append(0x09)
        out.append(contentsOf: product.name)
        out.append(0x09)
        out.append(contentsOf: encoded.name)
        out.append(0x09)
        out.append(contentsOf: encoded.timeZone)
        out.append(0x09)
        PostgresTimestamp.append(micros: requestedAt, to: &out)
        out.append(0x09)
        PostgresTimestamp.append(micros: startedAt, to: &out)
        out.append(0x09)
        if canceled {
            out.append(contentsOf: Self.nullText)
        } else {
            PostgresTimestamp.append(micros: startedAt + duration * Self.microsPerSecond, to: &out)
        }
        out.append(0x09)
        appendPlace(encoded, to: &out)
        out.append(0x09)
        appendPlace(encoded, to: &out)
        out.append(0x09)
        CopyText.appendInt(distance, to: &out)
        out.append(0x09)
        CopyText.appendInt(duration, to: &out)
        out.append(0x09)
        CopyText.appendInt(fare, to: &out)
        out.append(0x09)
        out.append(contentsOf: encoded.currency)
        let endedAt = canceled ? startedAt : startedAt + duration * Self.microsPerSecond
        appendLife(endedAt: endedAt, completed: !canceled, fare: fare, to: &out)
        out.append(0x0A)
    }

    /// The columns of the trip's life after the ride: `version`, `recorded_at` (shortly after it ended),
    /// `updated_at`, `tips_minor` and `refunds_minor`. About a third of completed trips get a tip within three
    /// days and about 1% a partial refund within a week (TripSeeder writes their ledger rows from these
    /// columns). Drawn from a generator of their own per trip, so the trips' other columns stay what they
    /// were before these existed.
    private func appendLife(endedAt: Int64, completed: Bool, fare: Int64, to out: inout [UInt8]) {
        var life = SplitMix64(
            seed: seed ^ (UInt64(truncatingIfNeeded: rider) &* 0x9E37_79B9_7F4A_7C15)
                ^ (UInt64(truncatingIfNeeded: tripIndex) &* 0xC2B2_AE3D_27D4_EB4F))
        let recordedAt = endedAt + life.between(5...120) * Self.microsPerSecond
        var updatedAt = recordedAt
        var version: Int64 = 1
        var tip: Int64 = 0
        var refund: Int64 = 0
        if completed && fare > 0 && life.chance(percent: 33) {
            tip = max(1, fare * life.between(5...20) / 100)
            version += 1
            updatedAt = recordedAt + life.between(600...(3 * 86_400)) * Self.microsPerSecond
        }
        if completed && fare > 0 && life.below(100) == 0 {
            refund = -max(1, fare * life.between(10...50) / 100)
            version += 1
            updatedAt += life.between(3600...(7 * 86_400)) * Self.microsPerSecond
        }
        out.append(0x09)
        CopyText.appendInt(version, to: &out)
        out.append(0x09)
        PostgresTimestamp.append(micros: recordedAt, to: &out)
        out.append(0x09)
        PostgresTimestamp.append(micros: updatedAt, to: &out)
        out.append(0x09)
        CopyText.appendInt(tip, to: &out)
        out.append(0x09)
        CopyText.appendInt(refund, to: &out)
    }

    /// Latitude, longitude and address columns of a point within about 9 km of the centre.
    private mutating func appendPlace(_ encoded: EncodedCity, to out: inout [UInt8]) {
        CopyText.appendMicrodegrees(encoded.city.latitudeMicro + random.between(-80_000...80_000), to: &out)
        out.append(0x09)
        CopyText.appendMicrodegrees(encoded.city.longitudeMicro + random.between(-100_000...100_000), to: &out)
        out.append(0x09)
        switch random.below(10) {
        case 0:
            out.append(contentsOf: encoded.landmarks[random.below(encoded.landmarks.count)])
        case 1, 2:
            // "12, Rue de Rivoli": the comma style of many European addresses.
            CopyText.appendInt(random.between(1...250), to: &out)
            out.append(contentsOf: Self.commaSpace)
            out.append(contentsOf: encoded.streets[random.below(encoded.streets.count)])
        default:
            CopyText.appendInt(random.between(1...2500), to: &out)
            out.append(0x20)
            out.append(contentsOf: encoded.streets[random.below(encoded.streets.count)])
        }
    }

    private static let completedText = Array("completed".utf8)
    private static let canceledText = Array("canceled".utf8)
    private static let nullText = Array("\\N".utf8)
    private static let commaSpace = Array(", ".utf8)
}
