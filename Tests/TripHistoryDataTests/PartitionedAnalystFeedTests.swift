import Testing
import TripHistoryDomain

@testable import TripHistoryData

/// How the analysts' feed on the sharded topology shares a page among partitions and names a topology.
@Suite struct PartitionedAnalystFeedTests {
    @Test func aPageIsSharedInTurnAmongPartitionsWithChangesLeft() {
        #expect(PartitionedAnalystFeed.shares(of: 10, among: [100, 0, 2, 100]) == [4, 0, 2, 4])
        #expect(PartitionedAnalystFeed.shares(of: 10, among: [1, 1, 1, 1]) == [1, 1, 1, 1])
        #expect(PartitionedAnalystFeed.shares(of: 3, among: [5, 5, 5, 5]) == [1, 1, 1, 0])
        #expect(PartitionedAnalystFeed.shares(of: 5, among: [0, 0]) == [0, 0])
        #expect(PartitionedAnalystFeed.shares(of: 0, among: [3]) == [0])
    }

    @Test func theTopologyChangesWhenAPartitionIsOnAnotherServerOrHasMoved() {
        let servers = [
            PartitionServer(systemIdentifier: 7_300_000_000_000_000_001, moves: 0),
            PartitionServer(systemIdentifier: 7_300_000_000_000_000_002, moves: 0),
        ]
        let topology = PartitionServer.fingerprint(servers)
        #expect(PartitionServer.fingerprint(servers) == topology)
        #expect(PartitionServer.fingerprint([servers[1], servers[0]]) != topology)
        #expect(PartitionServer.fingerprint([servers[0], servers[0]]) != topology)
        #expect(
            PartitionServer.fingerprint([
                servers[0], PartitionServer(systemIdentifier: servers[1].systemIdentifier, moves: 1),
            ])
                != topology)
        #expect(PartitionServer.fingerprint(Array(servers.prefix(1))) != topology)
    }

    @Test func aTokenOfOnePostgresIsRefusedOnTheShardedTopology() throws {
        #expect(throws: TripHistoryError.feedTopologyChanged) {
            try PartitionedAnalystFeed.page(
                [], topology: 1, after: [AnalystChangePosition(transaction: 1, riderID: 0, sequence: 0)], limit: 5)
        }
    }
}
