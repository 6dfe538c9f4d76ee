import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain

/// The Swift placement of riders on partitions equals what PostgreSQL computes: `hashint8` on the server, and
/// the mask PL/Proxy applies, for edge values and thousands of random ids. The proxy database's
/// `trip_history_partition(rider_id)` is this same expression (scripts/shards/proxy.sql).
@Suite struct DataRiderPlacementTests {
    /// `hashint8(v)` and `hashint8(v) & (partitions - 1)` for every id of `$1`, in the array's order.
    private struct ServerPlacement: PostgresPreparedStatement {
        static let name = "data_test_rider_placement"
        static let sql = """
            SELECT v.id, hashint8(v.id)::int8, (hashint8(v.id) & ($2::int4 - 1))::int8
            FROM unnest($1::int8[]) WITH ORDINALITY AS v(id, position)
            ORDER BY v.position
            """

        let ids: [Int64]
        let partitions: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(PostgresArray(ids))
            bindings.append(Int64(partitions))
            return bindings
        }

        func decodeRow(
            _ rows: PostgresRows, row: Int
        ) throws(PostgresError) -> (id: Int64?, hash: Int64?, partition: Int64?) {
            (try rows.int64(row, 0), try rows.int64(row, 1), try rows.int64(row, 2))
        }
    }

    private static var edgeValues: [Int64] {
        var values: [Int64] = [0, 1, -1, 2, -2, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        for bit in 0..<63 {
            let power = Int64(1) << bit
            values += [power, -power, power - 1, power + 1, -power - 1]
        }
        values += [Int64(Int32.max), Int64(Int32.min), Int64(UInt32.max), -Int64(UInt32.max)]
        return values
    }

    private static func compare(_ ids: [Int64], partitions: Int, on pool: PostgresConnectionPool) async throws {
        let placement = try #require(RiderPlacement(partitions: partitions))
        let rows = try await pool.read(ServerPlacement(ids: ids, partitions: partitions))
        #expect(rows.count == ids.count)
        var mismatches = 0
        for (id, row) in zip(ids, rows) {
            #expect(row.id == id)
            let hash = Int64(RiderPlacement.hashint8(id))
            let partition = Int64(placement.partition(of: id))
            if row.hash != hash || row.partition != partition {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record(
                        "id \(id): server hash \(String(describing: row.hash)) partition \(String(describing: row.partition)), Swift \(hash) and \(partition) of \(partitions)"
                    )
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func edgeValuesHashAndPlaceAsOnTheServer() async throws {
        try await DataTestDatabase.withPool { pool in
            for partitions in [1, 2, 16, 64, RiderPlacement.maximumPartitions] {
                try await Self.compare(Self.edgeValues, partitions: partitions, on: pool)
            }
        }
    }

    @Test func randomIdsHashAndPlaceAsOnTheServer() async throws {
        var generator = SystemRandomNumberGenerator()
        // Any 64-bit value, rider-like positive ids, and small ids as the seeder writes them.
        let wide = (0..<2_000).map { _ in Int64(bitPattern: generator.next()) }
        let positive = (0..<1_000).map { _ in Int64.random(in: 1...Int64.max, using: &generator) }
        let small = (0..<1_000).map { _ in Int64.random(in: 1...10_000_000, using: &generator) }
        try await DataTestDatabase.withPool { pool in
            for partitions in [8, 16, 1024] {
                try await Self.compare(wide + positive + small, partitions: partitions, on: pool)
            }
        }
    }
}
