public import Foundation
import Synchronization
public import TripHistoryAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches the identity provider's JWKS document over HTTP or HTTPS with Foundation's `URLSession` (libcurl
/// on Linux), which needs no HTTP client package beside the server's own.
///
/// Each fetch is bounded: it fails after `timeout` in all (a deadline of its own cancels it, since libcurl's
/// timeouts do not bound a server that trickles a byte now and then), as soon as the body (announced or received) exceeds
/// `maximumBytes`, on any status but 200, and on a redirect, which is not followed so a configured HTTPS URL
/// can never end on plain HTTP. Nothing is cached between fetches; `JWKSKeySource` keeps the keys.
public struct JWKSFetcher: Sendable {
    public let url: URL
    public let timeout: Duration
    public let maximumBytes: Int

    public init(url: URL, timeout: Duration = .seconds(5), maximumBytes: Int = 1 << 20) {
        self.url = url
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    /// Why a fetch failed; the URL is the configured one, which holds no secret.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case status(Int)
        case tooLarge(limit: Int)
        case redirected
        case timedOut
        case transport(String)

        public var description: String {
            switch self {
            case .status(let code): "the JWKS URL answered \(code)"
            case .tooLarge(let limit): "the JWKS document is larger than \(limit) bytes"
            case .redirected: "the JWKS URL redirects, and redirects are not followed"
            case .timedOut: "the JWKS URL did not answer in full within the fetch's time limit"
            case .transport(let reason): "the JWKS URL could not be fetched: \(reason)"
            }
        }
    }

    /// The document at `url`, with the `max-age` of its `Cache-Control`.
    public func fetch() async throws -> JWKSKeySource.Document {
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let download = Download(maximumBytes: maximumBytes)
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let deadline = Task { [timeout] in
            try await Task.sleep(for: timeout)
            download.timeOut()
        }
        defer { deadline.cancel() }
        let (body, response) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                download.start(session.dataTask(with: request), continuation: continuation)
            }
        } onCancel: {
            download.cancel()
        }
        return JWKSKeySource.Document(
            body: body,
            maxAge: response.value(forHTTPHeaderField: "Cache-Control").flatMap(JWKSKeySource.maxAge(cacheControl:)))
    }

    /// One download: collects the body up to its bound and resumes the fetch once, whatever ends it.
    private final class Download: NSObject, URLSessionDataDelegate, Sendable {
        typealias Continuation = CheckedContinuation<([UInt8], HTTPURLResponse), any Error>

        private struct State {
            var continuation: Continuation?
            var task: URLSessionDataTask?
            var response: HTTPURLResponse?
            var body: [UInt8] = []
            var failure: Failure?
            var cancelled = false
        }

        private let maximumBytes: Int
        private let state = Mutex(State())

        init(maximumBytes: Int) {
            self.maximumBytes = maximumBytes
        }

        func start(_ task: URLSessionDataTask, continuation: Continuation) {
            let cancelled = state.withLock { state in
                state.continuation = continuation
                state.task = task
                return state.cancelled
            }
            if cancelled { task.cancel() } else { task.resume() }
        }

        func cancel() {
            let task = state.withLock { state in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }

        /// Ends the download as timed out, whatever it is doing.
        func timeOut() {
            fail(.timedOut)
            state.withLock { $0.task }?.cancel()
        }

        /// Records `failure`, reported when the task completes; the caller makes the task end.
        private func fail(_ failure: Failure) {
            state.withLock { $0.failure = $0.failure ?? failure }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let http = response as? HTTPURLResponse else {
                fail(.transport("not an HTTP response"))
                completionHandler(.cancel)
                return
            }
            guard http.statusCode == 200 else {
                fail(.status(http.statusCode))
                completionHandler(.cancel)
                return
            }
            guard http.expectedContentLength <= Int64(maximumBytes) else {
                fail(.tooLarge(limit: maximumBytes))
                completionHandler(.cancel)
                return
            }
            state.withLock { $0.response = http }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let tooLarge = state.withLock { state in
                guard state.body.count + data.count <= maximumBytes else { return true }
                state.body.append(contentsOf: data)
                return false
            }
            if tooLarge {
                fail(.tooLarge(limit: maximumBytes))
                dataTask.cancel()
            }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            // Declining the redirect makes the redirect response the final one, which is then refused.
            fail(.redirected)
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (continuation, result) = state.withLock {
                state -> (Continuation?, Result<([UInt8], HTTPURLResponse), any Error>) in
                let continuation = state.continuation
                state.continuation = nil
                if let failure = state.failure { return (continuation, .failure(failure)) }
                if state.cancelled { return (continuation, .failure(CancellationError())) }
                if let error = error as? URLError, error.code == .timedOut {
                    return (continuation, .failure(Failure.timedOut))
                }
                if let error { return (continuation, .failure(Failure.transport(error.localizedDescription))) }
                guard let response = state.response else {
                    return (continuation, .failure(Failure.transport("no response")))
                }
                return (continuation, .success((state.body, response)))
            }
            continuation?.resume(with: result)
        }
    }
}
