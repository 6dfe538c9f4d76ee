import ArgumentParser
import Foundation
import Logging
import TripHistoryApp
import TripHistoryData
import TripHistoryDomain

/// `trip-history erasures`: lists the audit records of riders' erasures, newest first.
struct ErasuresCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erasures",
        abstract: "List the audit records of riders' erasures (DELETE /v1/riders/{rider_id}), newest first.",
        discussion: "One tab-separated line per erasure: time (UTC), rider id, trips, adjustments, who asked."
    )

    @OptionGroup var database: DatabaseFlags
    @OptionGroup var ignored: IgnoredDatabaseFlags

    @Option(help: "Only this rider's erasures.")
    var rider: Int64?

    @Option(help: "At most this many records.")
    var limit: Int = 100

    func validate() throws {
        if let rider, RiderID(rider) == nil { throw ValidationError("--rider must be a positive rider id.") }
        guard limit > 0 else { throw ValidationError("--limit must be positive.") }
    }

    func run() async throws {
        ignored.warn("erasures")
        let settings = try database.given.settings(environment: ProcessInfo.processInfo.environment)
        let records = try await withDatabase(settings, label: "trip-history.erasures") { pool, _ in
            try await RiderErasureLog(pool: pool).recent(riderID: rider.flatMap(RiderID.init), limit: limit)
        }
        print("erased_at\trider_id\ttrips\tadjustments\trequested_by")
        for record in records {
            print(
                "\(record.erasedAt.ISO8601Format(.iso8601))\t\(record.riderID)\t\(record.trips)\t"
                    + "\(record.adjustments)\t\(record.requestedBy)")
        }
    }
}
