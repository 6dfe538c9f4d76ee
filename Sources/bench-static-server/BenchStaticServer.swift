import Foundation
import Hummingbird

/// `bench-static-server PORT FILE`: a baseline for the benchmarks, serving FILE's bytes as `application/json`
/// from memory on `GET /page` at 127.0.0.1:PORT with Hummingbird's defaults, so the table can say what the
/// framework alone costs per request. It knows nothing of the service.
@main
struct BenchStaticServer {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let port = Int(arguments[1]),
            let body = FileManager.default.contents(atPath: arguments[2])
        else {
            FileHandle.standardError.write(Data("usage: bench-static-server PORT FILE\n".utf8))
            exit(64)
        }
        let bytes = ByteBuffer(bytes: body)
        let router = Router()
        router.get("page") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: bytes))
        }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await application.runService()
    }
}
