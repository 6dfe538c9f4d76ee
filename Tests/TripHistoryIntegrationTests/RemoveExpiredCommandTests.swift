import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryTestSupport

/// `trip-history remove-expired`, run as an operator runs it: the built binary against a schema of its own
/// (the removal reaches every row of the table).
@Suite struct RemoveExpiredCommandTests {
    @Test func itRemovesTheTripsPastTheRetentionAndSaysHowMany() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            // 400 days ago is in a year that ended before a month's cutoff, whatever the day of the run.
            let old = try await repository.record(
                try dataTestTrip(
                    rider: rider, requestedAtMicros: Timestamp.micros(Date().addingTimeInterval(-400 * 86_400))),
                idempotency: nil
            ).trip
            let recent = try await repository.record(
                try dataTestTrip(rider: rider, requestedAtMicros: Timestamp.micros(Date())), idempotency: nil
            ).trip

            let environment = ["DATABASE_URL": pool.configuration.connectionString, "PATH": "/usr/bin:/bin"]
            let unset = try await ProcessOutput.run(
                try ServeBinaryTests.binary(), ["remove-expired"], environment: environment)
            #expect(unset.status == 64, "\(unset.output)")
            #expect(unset.output.contains("TRIP_HISTORY_RETENTION_MONTHS"), "\(unset.output)")

            // A retention needs the partitioned table: before it, nothing goes and the run says what to do.
            let unpartitioned = try await ProcessOutput.run(
                try ServeBinaryTests.binary(), ["remove-expired", "--retention-months", "1"], environment: environment)
            #expect(unpartitioned.status != 0, "\(unpartitioned.output)")
            #expect(unpartitioned.output.contains("run trip-history partition-trips"), "\(unpartitioned.output)")
            #expect(try await repository.trip(id: old.id, riderID: rider) != nil)
            let partition = try await ProcessOutput.run(
                try ServeBinaryTests.binary(), ["partition-trips", "--batch-size", "1"], environment: environment)
            #expect(partition.status == 0, "\(partition.output)")
            #expect(partition.output.contains("Partitioned trips by year: 2 trips copied"), "\(partition.output)")

            let run = try await ProcessOutput.run(
                try ServeBinaryTests.binary(), ["remove-expired", "--retention-months", "1"], environment: environment)
            #expect(run.status == 0, "\(run.output)")
            let year = Calendar(identifier: .gregorian).dateComponents(
                in: TimeZone(identifier: "UTC")!, from: Date().addingTimeInterval(-400 * 86_400)
            ).year!
            #expect(run.output.contains("removed 1 trips of 1 riders, the years \(year)"), "\(run.output)")
            #expect(try await repository.trip(id: old.id, riderID: rider) == nil)
            #expect(try await repository.trip(id: recent.id, riderID: rider) != nil)
        }
    }
}
