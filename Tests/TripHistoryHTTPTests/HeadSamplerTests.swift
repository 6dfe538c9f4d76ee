import Foundation
import HTTPTypes
import Logging
import Testing
import Tracing
import TripHistoryTestSupport

@testable import TripHistoryHTTP

/// The head sampler of the ratio samplers: which requests reach the tracer, and what those left out keep.
@Suite struct HeadSamplerTests {
    static let sampledParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    static let unsampledParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"

    /// `00-<32 hex>-<16 hex>-00`, the trace id given when there is one.
    static func isLeftOut(_ decision: HeadSampler.Decision, traceID: String? = nil) -> Bool {
        guard case .leaveOut(let traceParent) = decision else { return false }
        let fields = traceParent.split(separator: "-")
        return fields.count == 4 && fields[0] == "00" && fields[3] == "00" && W3CTraceParent(traceParent) != nil
            && (traceID == nil || fields[1] == traceID!)
    }

    @Test func aContinuedTraceFollowsItsParentsFlagUnderParentBasedRatio() {
        let none = HeadSampler(rule: .parentBasedRatio(0))
        #expect(none.decide(traceParent: Self.sampledParent) == .trace)
        #expect(
            Self.isLeftOut(none.decide(traceParent: Self.unsampledParent), traceID: "4bf92f3577b34da6a3ce929d0e0e4736"))
        #expect(Self.isLeftOut(none.decide(traceParent: nil)))
        let all = HeadSampler(rule: .parentBasedRatio(1))
        #expect(all.decide(traceParent: nil) == .trace)
        #expect(Self.isLeftOut(all.decide(traceParent: Self.unsampledParent)))
        // A malformed traceparent is no parent: the request is a root.
        #expect(all.decide(traceParent: "00-XYZ-00f067aa0ba902b7-00") == .trace)
    }

    @Test func theRatioSamplerDecidesByTheTraceIDAlone() {
        // The low 64 bits of this id are 0xa3ce929d0e0e4736, about 0.64 of their range.
        let sampler = HeadSampler(rule: .ratio(0.5))
        #expect(
            Self.isLeftOut(sampler.decide(traceParent: Self.sampledParent), traceID: "4bf92f3577b34da6a3ce929d0e0e4736")
        )
        #expect(HeadSampler(rule: .ratio(0.7)).decide(traceParent: Self.unsampledParent) == .trace)
        #expect(HeadSampler.keeps("00000000000000000000000000000000", ratio: 0.001))
        #expect(HeadSampler.keeps("0000000000000000000000000000000f", ratio: 0.001))
        #expect(HeadSampler.keeps("0000000000000000000000000000000f", ratio: 0) == false)
        #expect(HeadSampler.keeps("ffffffffffffffffffffffffffffffff", ratio: 0.999) == false)
    }

    @Test func rootsAreKeptAtTheRatio() {
        let sampler = HeadSampler(rule: .parentBasedRatio(0.25))
        let count = 40_000
        let kept = (0..<count).filter { _ in sampler.decide(traceParent: nil) == .trace }.count
        let notifications = (0..<count).filter { _ in sampler.keepsRoot() }.count
        // Nine standard deviations either side of a quarter.
        #expect(abs(Double(kept) / Double(count) - 0.25) < 0.02)
        #expect(abs(Double(notifications) / Double(count) - 0.25) < 0.02)
        #expect(HeadSampler(rule: .ratio(0)).keepsRoot() == false)
        #expect(HeadSampler(rule: .ratio(1)).keepsRoot())
    }

    @Test func theRequestsLeftOutGetDistinctWellFormedIDs() {
        let sampler = HeadSampler(rule: .parentBasedRatio(0))
        var seen = Set<String>()
        for _ in 0..<10_000 {
            guard case .leaveOut(let traceParent) = sampler.decide(traceParent: nil) else {
                Issue.record("a root was kept at ratio 0")
                return
            }
            #expect(Self.isLeftOut(.leaveOut(traceParent: traceParent)))
            seen.insert(String(traceParent.split(separator: "-")[1]))
        }
        #expect(seen.count == 10_000)
    }

    @Test func traceParentsAreReadAsW3CTraceContextSays() {
        #expect(W3CTraceParent(Self.sampledParent) == W3CTraceParent(Self.sampledParent))
        #expect(W3CTraceParent(Self.sampledParent)?.sampled == true)
        #expect(W3CTraceParent(Self.sampledParent)?.parentID == "00f067aa0ba902b7")
        #expect(W3CTraceParent(Self.unsampledParent)?.sampled == false)
        #expect(W3CTraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03")?.sampled == true)
        // A later version may add fields; version 00 may not, ff is invalid, ids are lower-case hex, not zero.
        #expect(W3CTraceParent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra") != nil)
        for invalid in [
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", "", "00--00f067aa0ba902b7-01",
        ] {
            #expect(W3CTraceParent(invalid) == nil, "\(invalid)")
        }
    }

    /// A request left out never reaches the tracer, yet its response names its trace and its 5xx is logged
    /// with the trace id, continued from the caller's `traceparent`.
    @Test func aRequestLeftOutNeverReachesTheTracerAndKeepsItsTrace() throws {
        let tracer = W3CInMemoryTracer()
        let tracing = RequestTracing(tracer: tracer, headSampler: HeadSampler(rule: .parentBasedRatio(1)))
        let lines = LogLines()
        var head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/v1/trips")
        head.headerFields[HTTPField.Name("traceparent")!] = Self.unsampledParent
        let span = tracing.start(head)
        #expect(span.isRecording == false)
        var headers = HTTPFields()
        tracing.finish(
            span, route: "/v1/trips", status: .internalServerError, headers: &headers, requestID: "req-3",
            logger: Logger(label: "test") { _ in lines })
        #expect(tracer.finishedSpans.isEmpty)
        let traceResponse = try #require(headers[RequestTracing.traceResponseField])
        #expect(traceResponse.hasPrefix("00-4bf92f3577b34da6a3ce929d0e0e4736-") && traceResponse.hasSuffix("-00"))
        #expect(!traceResponse.contains("00f067aa0ba902b7"))
        #expect(lines.entries.first?.metadata["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(lines.entries.first?.metadata["span_id"] == .string(String(traceResponse.split(separator: "-")[2])))
        // A root at ratio 1 reaches the tracer as before.
        let root = tracing.start(HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/v1/trips"))
        root.end()
        #expect(tracer.finishedSpans.count == 1)
    }
}
