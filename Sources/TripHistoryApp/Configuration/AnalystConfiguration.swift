public import TripHistoryDomain

/// Limits of the analyst API (`GET /v1/trips`, its exports, `GET /v1/trips/stats`).
public struct AnalystConfiguration: Sendable, Equatable {
    /// The widest `from`..`to` window in days.
    public var maximumSpanDays = 400
    /// Exports streaming at once; more get 429.
    public var maximumConcurrentExports = 2
    public var maximumExportsPerAnalyst = 1
    public var maximumStatsPerAnalyst = 2
    /// Riders' exports of their own trips streaming at once, in slots apart from the analysts'.
    public var maximumConcurrentRiderExports = 4
    /// How long one export, an analyst's or a rider's, may stream before it is ended.
    public var exportTimeLimit: Duration = .seconds(1800)
    /// The statement timeout of analyst queries, which may be longer than the rider default.
    public var statementTimeout: Duration = .seconds(30)

    public init() {}

    init(settings: SettingsReader) throws {
        maximumSpanDays = try settings.integer(.analystMaxSpanDays, in: 1...36_600) ?? maximumSpanDays
        maximumConcurrentExports =
            try settings.integer(.analystMaxExports, in: 1...1_000) ?? maximumConcurrentExports
        maximumExportsPerAnalyst =
            try settings.integer(.analystMaxExportsPerAnalyst, in: 1...1_000) ?? maximumExportsPerAnalyst
        maximumStatsPerAnalyst =
            try settings.integer(.analystMaxStatsPerAnalyst, in: 1...1_000) ?? maximumStatsPerAnalyst
        maximumConcurrentRiderExports =
            try settings.integer(.riderMaxExports, in: 1...1_000) ?? maximumConcurrentRiderExports
        exportTimeLimit =
            try settings.integer(.exportTimeLimit, in: 10...604_800).map { .seconds($0) } ?? exportTimeLimit
        statementTimeout =
            try settings.integer(.analystStatementTimeout, in: 1...86_400_000).map { .milliseconds($0) }
            ?? statementTimeout
    }
}

/// The bounds of a trip's life after the ride, and how long what it leaves behind is kept.
public struct LifecycleConfiguration: Sendable, Equatable {
    /// Days after a trip's completion during which tips are accepted.
    public var tipWindowDays = 30
    /// Days the changes feed keeps changes; an older `since` token gets 410.
    public var changesRetentionDays = 30
    /// How long an idempotency key is remembered; a retry within it replays the first response.
    public var idempotencyRetention: Duration = .seconds(24 * 3600)
    /// How long trips are kept; nil (the default) keeps them until their rider is erased.
    public var tripRetention: TripRetention?
    /// How far from now a recorded trip may have been requested.
    public var recordingHorizon = RecordingHorizon.standard

    public init() {}

    init(settings: SettingsReader) throws {
        tipWindowDays = try settings.integer(.tipWindowDays, in: 1...3650) ?? tipWindowDays
        changesRetentionDays = try settings.integer(.changesRetentionDays, in: 30...3650) ?? changesRetentionDays
        idempotencyRetention =
            try settings.integer(.idempotencyRetentionHours, in: 1...(24 * 366)).map { .seconds($0 * 3600) }
            ?? idempotencyRetention
        tripRetention = try Self.tripRetention(settings)
        recordingHorizon =
            try settings.integer(.recordingHorizonYears, in: RecordingHorizon.acceptedYears).map(RecordingHorizon.init)
            ?? recordingHorizon
    }

    /// The trip retention the settings give (`TRIP_HISTORY_RETENTION_MONTHS`), nil when they give none.
    public static func tripRetention(_ settings: SettingsReader) throws -> TripRetention? {
        try settings.integer(.retentionMonths, in: TripRetention.acceptedMonths).map(TripRetention.init)
    }
}
