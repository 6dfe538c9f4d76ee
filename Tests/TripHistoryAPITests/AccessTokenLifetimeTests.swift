import Testing

@testable import TripHistoryAPI

/// Tokens cannot be issued to live longer than their role allows, so a leaked one expires on its own.
@Suite struct AccessTokenLifetimeTests {
    @Test(arguments: AccessTokens.Role.allCases)
    func aTokenLivesAtMostItsRolesMaximum(role: AccessTokens.Role) async throws {
        let tokens = await AccessTokens(secret: Array("lifetime-test-secret-at-least-32-bytes!".utf8))
        let maximum = role.maximumTimeToLive
        let token = try await tokens.issue(role: role, subject: "1", timeToLive: maximum)
        #expect(try await tokens.caller(authorization: "Bearer \(token)") != nil)
        for refused in [maximum + .seconds(1), .zero, .seconds(-5)] {
            await #expect(throws: AccessTokens.LifetimeError(role: role, maximum: maximum)) {
                _ = try await tokens.issue(role: role, subject: "1", timeToLive: refused)
            }
        }
    }

    @Test func theMaximumsAreAWeekADayAndThirtyDays() {
        #expect(AccessTokens.Role.rider.maximumTimeToLive == .seconds(604_800))
        #expect(AccessTokens.Role.analyst.maximumTimeToLive == .seconds(86_400))
        #expect(AccessTokens.Role.service.maximumTimeToLive == .seconds(2_592_000))
    }
}
