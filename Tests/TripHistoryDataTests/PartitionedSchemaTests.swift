import Testing

@testable import TripHistoryData

/// How `trip-history migrate` on a proxy reads the partitions from the PL/Proxy cluster's options.
@Suite struct PartitionedSchemaTests {
    @Test func partitionsAreTheClusterOptionsInNumberOrderWithTheUserMappingAdded() throws {
        let partitions = try PartitionedSchema.partitions(
            clusterOptions: [
                "connection_lifetime=1800", "p1=host=127.0.0.1 port=5433 dbname=trip_history_p001",
                "p0=host=127.0.0.1 port=5432 dbname=trip_history_p000",
            ],
            userMappingOptions: ["user=postgres", "password=it's\\secret"])
        #expect(
            partitions == [
                .init(
                    number: 0,
                    connectionString:
                        "host=127.0.0.1 port=5432 dbname=trip_history_p000 user='postgres' password='it\\'s\\\\secret'"),
                .init(
                    number: 1,
                    connectionString:
                        "host=127.0.0.1 port=5433 dbname=trip_history_p001 user='postgres' password='it\\'s\\\\secret'"),
            ])
    }

    @Test func aClusterWhosePartitionsAreNotZeroToAPowerOfTwoIsRefused() {
        #expect(throws: PartitionedSchemaError.notAPowerOfTwo([0, 1, 2])) {
            try PartitionedSchema.partitions(
                clusterOptions: ["p0=dbname=a", "p1=dbname=b", "p2=dbname=c"], userMappingOptions: [])
        }
        #expect(throws: PartitionedSchemaError.notAPowerOfTwo([0, 2])) {
            try PartitionedSchema.partitions(clusterOptions: ["p0=dbname=a", "p2=dbname=c"], userMappingOptions: [])
        }
    }

    @Test func theBuiltInSQLIsTheRepositorysShardsFolder() throws {
        #expect(ShardSQL.partition.contains("CREATE OR REPLACE FUNCTION trip_history_become_partition("))
        #expect(ShardSQL.proxy.contains("CREATE EXTENSION IF NOT EXISTS plproxy"))
        #expect(ShardSQL.types.contains("CREATE TYPE trip_history_trip AS"))
    }
}
