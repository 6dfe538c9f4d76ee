import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

@Suite struct TokenBatchTests {
    private static let secret = Array("token-batch-secret-that-is-32-bytes-or-more".utf8)

    @Test(
        arguments: [
            ("1-100000", 1, 100_000), ("7", 7, 7), ("42-42", 42, 42), ("0009-0010", 9, 10),
        ] as [(String, Int64, Int64)])
    func parsesRanges(text: String, first: Int64, last: Int64) {
        let range = RiderIDRange(text)
        #expect(range?.first == first)
        #expect(range?.last == last)
        #expect(range?.count == last - first + 1)
    }

    @Test(arguments: [
        "", "0", "0-5", "5-4", "-3", "3-", "a-b", "1 - 2", "+1-2", "1-2-3", "1-10000001",
        "99999999999999999999-1",
    ])
    func refusesMalformedOrOversizedRanges(text: String) {
        #expect(RiderIDRange(text) == nil)
    }

    @Test func everyLineHoldsATokenThatVerifiesForItsRiderInOrder() async throws {
        let tokens = await AccessTokens(secret: Self.secret)
        let range = try #require(RiderIDRange("95-160"))
        var output: [UInt8] = []
        var chunks = 0
        // A tiny chunk size exercises the batching: every line must still arrive whole and in order.
        try await tokens.writeRiderTokens(for: range, timeToLive: .seconds(600), chunkBytes: 500) { chunk in
            output.append(contentsOf: chunk)
            chunks += 1
        }
        #expect(chunks > 1)
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count == 66)
        var distinct = Set<Substring>()
        for (offset, line) in lines.enumerated() {
            let fields = line.split(separator: "\t")
            try #require(fields.count == 2)
            #expect(fields[0] == "\(95 + offset)")
            distinct.insert(fields[1])
            let caller = try await tokens.caller(authorization: "Bearer \(fields[1])")
            #expect(caller == .rider(RiderID(Int64(95 + offset))!))
        }
        #expect(distinct.count == 66)
    }

    @Test func batchTokensExpireAfterTheirTimeToLive() async throws {
        let tokens = await AccessTokens(secret: Self.secret)
        var output: [UInt8] = []
        try await tokens.writeRiderTokens(
            for: try #require(RiderIDRange("3-4")), timeToLive: .seconds(60), now: Date().addingTimeInterval(-3600)
        ) { output.append(contentsOf: $0) }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let token = line.split(separator: "\t")[1]
            await #expect(throws: Problem.self) { try await tokens.caller(authorization: "Bearer \(token)") }
        }
    }

    @Test func batchTokensSignedWithAnotherSecretDoNotVerify() async throws {
        let tokens = await AccessTokens(secret: Self.secret)
        let other = await AccessTokens(secret: Array("another-secret-that-is-also-32-bytes-long".utf8))
        var output: [UInt8] = []
        try await other.writeRiderTokens(for: try #require(RiderIDRange("1")), timeToLive: .seconds(60)) {
            output.append(contentsOf: $0)
        }
        let token = String(decoding: output, as: UTF8.self).split(separator: "\t")[1].dropLast()
        await #expect(throws: Problem.self) { try await tokens.caller(authorization: "Bearer \(token)") }
    }
}
