import Foundation
import HTTPTypes
import OpenAPIRuntime

@testable import TripHistoryClient

/// A `ClientTransport` that answers from a script, in order, and records every request it was sent.
///
/// A step may be held behind a `Gate` so a test can observe the state while a request is on its way, or
/// change something before the answer arrives. A request with no step left fails the test's expectations
/// through a 599 answer the client reports as an unexpected error.
actor ScriptedTransport: ClientTransport {
    /// One scripted answer.
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String?

        /// A page of trips with the headers the service sends with every 200.
        static func page(
            _ ids: [Int], next: String? = nil, prev: String? = nil, etag: String = "\"etag-default-000000000\""
        ) -> Reply {
            Reply(
                status: 200, headers: Fixtures.okHeaders(etag: etag),
                body: Fixtures.pageJSON(ids, next: next, prev: prev))
        }

        /// A page of trips given as JSON, with the filter's bounds as the service applied them.
        static func page(
            trips: [String], next: String? = nil, from: String? = nil, to: String? = nil,
            etag: String = "\"etag-trips-00000000000\""
        ) -> Reply {
            Reply(
                status: 200, headers: Fixtures.okHeaders(etag: etag),
                body: Fixtures.pageJSON(trips: trips, next: next, prev: nil, from: from, to: to))
        }

        /// A changes-feed answer of `entries` (`Fixtures.upsert`, `Fixtures.erased`) whose token is `next`.
        static func changes(
            _ entries: [String], next: String, hasMore: Bool = false, etag: String = "\"feed-etag-default-0000\""
        ) -> Reply {
            Reply(
                status: 200, headers: Fixtures.okHeaders(etag: etag),
                body: Fixtures.changesJSON(entries, next: next, hasMore: hasMore))
        }

        /// The feed's answer without `since`: no changes and a token for now.
        static func feedStart(_ token: String = "t0") -> Reply {
            changes([], next: token, etag: "\"feed-etag-start-000000\"")
        }

        /// `304 Not Modified` for `etag`.
        static func notModified(etag: String) -> Reply {
            Reply(status: 304, headers: Fixtures.okHeaders(etag: etag), body: nil)
        }

        /// An RFC 9457 problem, with `Retry-After` when given.
        static func problem(
            _ status: Int, code: String, retryable: Bool, param: String? = nil, retryAfter: Int? = nil
        ) -> Reply {
            var headers = ["X-Request-ID": "req-\(code)", "Content-Type": "application/problem+json"]
            if let retryAfter { headers["Retry-After"] = String(retryAfter) }
            let paramMember = param.map { #","param":"\#($0)""# } ?? ""
            let body = """
                {"type":"urn:trip-history:problem:\(code)","title":"T","status":\(status),"detail":"D",\
                "code":"\(code)"\(paramMember),"retryable":\(retryable),"request_id":"req-\(code)"}
                """
            return Reply(status: status, headers: headers, body: body)
        }
    }

    enum Step: Sendable {
        case reply(Reply)
        case held(Gate, Reply)
        case failure(URLError.Code)
    }

    private var steps: [Step]
    private(set) var requests: [HTTPRequest] = []

    init(_ steps: [Step] = []) {
        self.steps = steps
    }

    func append(_ step: Step) {
        steps.append(step)
    }

    /// The query items of request `index`.
    func query(of index: Int) -> [String: String] {
        guard let path = requests[index].path, let components = URLComponents(string: path) else { return [:] }
        return Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// Returns once `count` requests have arrived.
    func waitForRequests(_ count: Int) async {
        while requests.count < count { await Task.yield() }
    }

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        requests.append(request)
        guard !steps.isEmpty else { return Self.response(Reply(status: 599, headers: [:], body: nil)) }
        switch steps.removeFirst() {
        case .reply(let reply):
            return Self.response(reply)
        case .held(let gate, let reply):
            await gate.wait()
            return Self.response(reply)
        case .failure(let code):
            throw URLError(code)
        }
    }

    private static func response(_ reply: Reply) -> (HTTPResponse, HTTPBody?) {
        var fields = HTTPFields()
        for (name, value) in reply.headers { fields[HTTPField.Name(name)!] = value }
        if reply.body != nil, fields[.contentType] == nil { fields[.contentType] = "application/json" }
        return (HTTPResponse(status: .init(code: reply.status), headerFields: fields), reply.body.map { HTTPBody($0) })
    }
}

/// Holds a scripted answer until the test opens it; the answer then arrives even if its task was cancelled,
/// the way a response already on the wire does.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// Records the waits the client asks for instead of waiting.
actor SleepRecorder {
    private(set) var delays: [TimeInterval] = []

    func record(_ delay: TimeInterval) throws {
        try Task.checkCancellation()
        delays.append(delay)
    }
}
