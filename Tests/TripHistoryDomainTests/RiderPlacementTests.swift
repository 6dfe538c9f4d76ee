import Testing
import TripHistoryDomain

/// The placement of riders on partitions: PostgreSQL's `hashint8` bit for bit (values read from PostgreSQL 15's
/// `SELECT hashint8(v)`), masked to the number of partitions as PL/Proxy does. The data tests compare it with a
/// live server over many more values.
@Suite struct RiderPlacementTests {
    @Test(
        arguments: [
            (0, -272_711_505),
            (1, -1_905_060_026),
            (-1, 385_747_274),
            (2, 1_134_484_726),
            (42, 1_509_752_520),
            (1_000_000, -723_906_379),
            (Int64.min, -96_758_253),
            (Int64.max, -1_524_351_049),
            (4_294_967_296, -1_905_060_026),
            (4_294_967_295, 385_747_274),
            (-4_294_967_296, -272_711_505),
            (1_234_567_890_123, 952_082_253),
        ] as [(Int64, Int32)])
    func hashint8MatchesPostgreSQL(value: Int64, hash: Int32) {
        #expect(RiderPlacement.hashint8(value) == hash)
    }

    @Test func anInt8HashesLikeTheEqualInt4() {
        // hashint8 folds the high half in so that equal int4 and int8 values hash alike; 2^32 folds to 1.
        #expect(RiderPlacement.hashint8(1 << 32) == RiderPlacement.hashint8(1))
        #expect(RiderPlacement.hashint8(-(1 << 32)) == RiderPlacement.hashint8(0))
    }

    @Test func riders1To32OnSixteenAndEightPartitionsAsPostgreSQLPlacesThem() throws {
        // SELECT string_agg((hashint8(v) & 15)::text, ',' ORDER BY v) FROM generate_series(1, 32) v, and & 7.
        let sixteen = [
            6, 6, 7, 11, 12, 0, 15, 4, 14, 7, 9, 4, 12, 1, 6, 15, 4, 11, 4, 11, 6, 13, 8, 15, 3, 8, 3, 4, 5, 11, 9, 3,
        ]
        let eight = [6, 6, 7, 3, 4, 0, 7, 4, 6, 7, 1, 4, 4, 1, 6, 7, 4, 3, 4, 3, 6, 5, 0, 7, 3, 0, 3, 4, 5, 3, 1, 3]
        let onSixteen = try #require(RiderPlacement(partitions: 16))
        let onEight = try #require(RiderPlacement(partitions: 8))
        #expect((1...32).map { onSixteen.partition(of: Int64($0)) } == sixteen)
        #expect((1...32).map { onEight.partition(of: Int64($0)) } == eight)
        let rider = try #require(RiderID(7))
        #expect(onSixteen.partition(of: rider) == 15)
    }

    @Test func theExtremesLandWithinTheRange() throws {
        let placement = try #require(RiderPlacement(partitions: 1024))
        #expect(placement.partition(of: Int64.max) == 951)
        #expect(placement.partition(of: Int64.min) == 531)
        let single = try #require(RiderPlacement(partitions: 1))
        #expect([Int64.min, -1, 0, 1, Int64.max].allSatisfy { single.partition(of: $0) == 0 })
    }

    @Test func halvingThePartitionsMergesPairsWithoutMovingOtherRiders() throws {
        // A rider on partition p of 2L lands on p mod L of L: splitting a partition never moves riders elsewhere.
        let sixteen = try #require(RiderPlacement(partitions: 16))
        let eight = try #require(RiderPlacement(partitions: 8))
        for rider in Int64(1)...2_000 {
            #expect(sixteen.partition(of: rider) % 8 == eight.partition(of: rider))
        }
    }

    @Test(arguments: [0, -4, 3, 12, 48, 100, RiderPlacement.maximumPartitions * 2])
    func onlyPowersOfTwoAreAccepted(partitions: Int) {
        #expect(RiderPlacement(partitions: partitions) == nil)
    }

    @Test(arguments: [1, 2, 4, 64, 4096, RiderPlacement.maximumPartitions])
    func powersOfTwoAreAccepted(partitions: Int) {
        #expect(RiderPlacement(partitions: partitions)?.partitions == partitions)
    }
}
