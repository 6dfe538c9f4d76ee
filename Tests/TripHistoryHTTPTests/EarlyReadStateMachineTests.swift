import Testing

@testable import TripHistoryHTTP

/// The early-read handler's ordering rules, event by event, without a channel: answers and computations start
/// only between requests, requests behind one passed on follow it to the router, parts behind a computation
/// are held in order, and a client pipelining too many is read no further until the computation ends.
@Suite struct EarlyReadStateMachineTests {
    /// Answers and computations are named by strings, parts by numbers.
    typealias Machine = EarlyReadStateMachine<String, String, Int>

    private static func machine() -> Machine {
        Machine(heldPartsBeforeBackPressure: 3)
    }

    private static func describe(_ action: Machine.Action) -> String {
        switch action {
        case .passOn: "pass on"
        case .none: "none"
        case .write(let answer): "write \(answer)"
        case .start(let computation): "start \(computation)"
        case .close: "close"
        }
    }

    private static func describe(_ state: Machine.State) -> String {
        switch state {
        case .idle: "idle"
        case .answering(let answer): "answering \(answer)"
        case .awaitingEnd(let computation): "awaiting end of \(computation)"
        case .computing(let held, let readDeferred): "computing, held \(held), read deferred \(readDeferred)"
        case .passingOn(let unanswered, let receiving): "passing on \(unanswered), receiving \(receiving)"
        }
    }

    /// Sends head `part`, which would be a hit if it were looked at: the action, and whether it was.
    private static func hit(_ machine: inout Machine, _ part: Int) -> (action: String, asked: Bool) {
        var asked = false
        let action = machine.head(part) {
            asked = true
            return .answer("hit")
        }
        return (describe(action), asked)
    }

    @Test func aStoredAnswerIsWrittenWhenItsRequestEnds() {
        var machine = Self.machine()
        #expect(Self.describe(machine.head(1) { .answer("hit") }) == "none")
        #expect(Self.describe(machine.state) == "answering hit")
        #expect(Self.describe(machine.end(2)) == "write hit")
        #expect(Self.describe(machine.state) == "idle")
    }

    @Test func partsBehindAComputationAreHeldInOrderAndHandedBackWhenItEnds() {
        var machine = Self.machine()
        #expect(Self.describe(machine.head(1) { .compute("miss") }) == "none")
        #expect(Self.describe(machine.end(2)) == "start miss")
        let (behindComputation, askedBehindComputation) = Self.hit(&machine, 3)
        #expect(behindComputation == "none")
        #expect(!askedBehindComputation, "a head behind a computation is not looked at until it ends")
        #expect(Self.describe(machine.end(4)) == "none")
        #expect(Self.describe(machine.state) == "computing, held [3, 4], read deferred false")
        let ended = machine.computed()
        #expect(ended?.held == [3, 4])
        #expect(ended?.readDeferred == false)
        #expect(Self.describe(machine.state) == "idle")
        #expect(machine.computed() == nil, "no computation runs")
    }

    @Test func aClientPipeliningTooManyIsReadNoFurtherUntilTheComputationEnds() {
        var machine = Self.machine()
        _ = machine.head(1) { .compute("miss") }
        _ = machine.end(2)
        let readsWithNothingHeld = machine.readRequested()
        #expect(readsWithNothingHeld, "nothing held yet")
        for part in 3...5 { _ = machine.body(part) }
        let readsWithThreeHeld = machine.readRequested()
        #expect(!readsWithThreeHeld)
        #expect(Self.describe(machine.state) == "computing, held [3, 4, 5], read deferred true")
        #expect(machine.computed()?.readDeferred == true)
        let resumes = machine.resumeRead()
        #expect(resumes, "the held parts started no computation: read now")

        // Held parts that start another computation keep the read put off until it ends.
        _ = machine.head(6) { .compute("first") }
        _ = machine.end(7)
        _ = machine.head(8) { .compute("second") }
        _ = machine.end(9)
        _ = machine.body(10)
        let readsBehindTheSecond = machine.readRequested()
        #expect(!readsBehindTheSecond)
        let held = machine.computed()?.held ?? []
        #expect(held == [8, 9, 10])
        #expect(Self.describe(machine.head(held[0]) { .compute("second") }) == "none")
        #expect(Self.describe(machine.end(held[1])) == "start second")
        #expect(Self.describe(machine.body(held[2])) == "none")
        let resumesBehindTheSecond = machine.resumeRead()
        #expect(!resumesBehindTheSecond)
        #expect(Self.describe(machine.state) == "computing, held [10], read deferred true")
    }

    @Test func requestsBehindOnePassedOnFollowItUntilEveryResponseIsWritten() {
        var machine = Self.machine()
        #expect(Self.describe(machine.head(1) { .passOn }) == "pass on")
        #expect(Self.describe(machine.end(2)) == "pass on")
        let (behindPassedOn, askedBehindPassedOn) = Self.hit(&machine, 3)
        #expect(behindPassedOn == "pass on")
        #expect(!askedBehindPassedOn, "a hit must not overtake the router's answer")
        #expect(Self.describe(machine.body(4)) == "pass on")
        #expect(Self.describe(machine.end(5)) == "pass on")
        #expect(Self.describe(machine.state) == "passing on 2, receiving false")
        machine.responseEndWritten()
        #expect(Self.describe(machine.state) == "passing on 1, receiving false")
        machine.responseEndWritten()
        #expect(Self.describe(machine.state) == "idle")
    }

    @Test func aRequestTheRouterAnsweredBeforeItEndedFreesTheConnectionWhenItEnds() {
        var machine = Self.machine()
        _ = machine.head(1) { .passOn }
        machine.responseEndWritten()
        #expect(Self.describe(machine.state) == "passing on 0, receiving true")
        #expect(Self.describe(machine.end(2)) == "pass on")
        #expect(Self.describe(machine.state) == "idle")
    }

    @Test func partsOutOfOrderCloseTheConnection() {
        var idle = Self.machine()
        #expect(Self.describe(idle.body(1)) == "close")
        #expect(Self.describe(idle.end(1)) == "close")

        var answering = Self.machine()
        _ = answering.head(1) { .answer("hit") }
        #expect(Self.describe(answering.body(2)) == "close", "a request answered here has no body")
        #expect(Self.describe(answering.head(3) { .answer("other") }) == "close")

        var passedOn = Self.machine()
        _ = passedOn.head(1) { .passOn }
        _ = passedOn.end(2)
        #expect(Self.describe(passedOn.end(3)) == "close", "an end without its head")
    }
}
