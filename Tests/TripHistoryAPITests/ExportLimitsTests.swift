import HTTPTypes
import Testing
import TripHistoryDomain

@testable import TripHistoryAPI

/// Who takes which export slot: riders' own exports in slots apart from the analysts', one per rider, so riders
/// reading their exports slowly cannot hold the slots analysts need, nor the reverse.
@Suite struct ExportLimitsTests {
    private static func limits(analysts: Int = 2, riders: Int = 2) -> ExportLimits {
        ExportLimits(
            analystSlots: ConcurrencySlots(capacity: analysts, perCaller: 1),
            riderSlots: ConcurrencySlots(capacity: riders, perCaller: 1), timeLimit: .seconds(60))
    }

    @Test func ridersHoldingEveryRiderSlotLeaveTheAnalystsTheirs() throws {
        let limits = Self.limits()
        do {
            let first = try limits.slot(for: .rider(RiderID(1)!))
            let second = try limits.slot(for: .rider(RiderID(2)!))
            #expect(limits.riderSlots.active == 2 && limits.analystSlots.active == 0)
            #expect(throws: Problem.self) { try limits.slot(for: .rider(RiderID(3)!)) }
            let analyst = try limits.slot(for: .analyst(subject: "ana"))
            #expect(limits.analystSlots.active == 1)
            withExtendedLifetime((first, second, analyst)) {}
        }
        #expect(limits.riderSlots.active == 0 && limits.analystSlots.active == 0)
    }

    @Test func aRiderRunsOneExportAtATimeAndEachRefusalSaysWhichLimitWithRetryAfter() throws {
        let limits = Self.limits(analysts: 1, riders: 1)
        let held = try limits.slot(for: .rider(RiderID(7)!))
        do {
            _ = try limits.slot(for: .rider(RiderID(7)!))
            Issue.record("a second export of the same rider was admitted")
        } catch {
            #expect(error.status == .tooManyRequests && error.code == .rateLimited)
            #expect(error.retryAfterSeconds == 10)
            #expect(error.detail.contains("your exports"))
        }
        do {
            _ = try limits.slot(for: .rider(RiderID(8)!))
            Issue.record("an export beyond the riders' slots was admitted")
        } catch {
            #expect(error.detail.contains("1 riders' exports"))
        }
        // Services and the privacy desk count with the analysts.
        let service = try limits.slot(for: .service(subject: "backend"))
        #expect(throws: Problem.self) { try limits.slot(for: .analyst(subject: "ana")) }
        withExtendedLifetime((held, service)) {}
    }
}
