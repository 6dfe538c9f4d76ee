import HTTPTypes
import HummingbirdTesting
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryFakes
import TripHistoryTestSupport

/// A rotation as operators run it: a token and a cursor issued before it keep working while the old secret is a
/// previous one, and stop once it is dropped.
@Suite struct SecretRotationRouteTests {
    static let old = Array("the-secret-before-the-rotation-32-bytes!".utf8)
    static let new = Array("the-secret-after-the-rotation--32-bytes!".utf8)
    let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 12))

    func api(secret: [UInt8], previous: [[UInt8]] = []) async -> TestAPI<InMemoryTripRepository> {
        await TestAPI(
            repository: repository, analystRepository: InMemoryAnalystTripRepository(trips: []),
            settings: {
                $0.secret = secret
                $0.previousSecrets = previous
            })
    }

    @Test func aTokenAndACursorOfThePreviousSecretWorkUntilItIsDropped() async throws {
        let before = await api(secret: Self.old)
        let rotated = await api(secret: Self.new, previous: [Self.old])
        let dropped = await api(secret: Self.new)
        let oldToken = TestAPI<InMemoryTripRepository>.bearer(try await before.riderToken(1))
        let (cursor, secondPage) = try await before.test { client in
            let cursor = try await client.execute(uri: "/v1/riders/1/trips?limit=5", method: .get, headers: oldToken) {
                try #require($0.json().string("page.next_cursor"))
            }
            let page = try await client.execute(
                uri: "/v1/riders/1/trips?limit=5&cursor=\(cursor)", method: .get, headers: oldToken
            ) { $0.json().tripIDs }
            return (cursor, page)
        }
        #expect(secondPage.count == 5)

        try await rotated.test { client in
            try await client.execute(
                uri: "/v1/riders/1/trips?limit=5&cursor=\(cursor)", method: .get, headers: oldToken
            ) { response in
                #expect(response.status == .ok)
                #expect(response.json().tripIDs == secondPage)
            }
        }

        let newToken = TestAPI<InMemoryTripRepository>.bearer(try await dropped.riderToken(1))
        try await dropped.test { client in
            try await client.execute(uri: "/v1/riders/1/trips?limit=5", method: .get, headers: oldToken) { response in
                #expect(response.status == .unauthorized)
                #expect(response.json().string("code") == "unauthorized")
                #expect(response.json().string("detail")?.contains("no longer accepts") == true)
            }
            try await client.execute(
                uri: "/v1/riders/1/trips?limit=5&cursor=\(cursor)", method: .get, headers: newToken
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.json().string("code") == "invalid_cursor")
            }
        }
    }

    @Test func newTokensAndCursorsAreSignedWithTheCurrentSecret() async throws {
        let rotated = await api(secret: Self.new, previous: [Self.old])
        let dropped = await api(secret: Self.new)
        let token = TestAPI<InMemoryTripRepository>.bearer(try await rotated.riderToken(1))
        #expect(rotated.tokens.currentKeyID == SigningSecrets.keyID(of: Self.new))
        let cursor = try await rotated.test { client in
            try await client.execute(uri: "/v1/riders/1/trips?limit=5", method: .get, headers: token) {
                try #require($0.json().string("page.next_cursor"))
            }
        }
        // Once the old secret is gone, what the rotated service issued still works.
        try await dropped.test { client in
            try await client.execute(
                uri: "/v1/riders/1/trips?limit=5&cursor=\(cursor)", method: .get, headers: token
            ) { response in
                #expect(response.status == .ok)
                #expect(response.json().tripIDs.count == 5)
            }
        }
    }
}
