import Foundation
import HTTPTypes
import Hummingbird

/// `bench-static-server PORT FILE [HEAD]`: a baseline for the benchmarks, serving FILE's bytes as
/// `application/json` from memory at 127.0.0.1:PORT with Hummingbird's defaults, so the table can say what the
/// framework alone costs per request. `GET /page` answers with the body alone; given HEAD, the service's response
/// head as `curl -D` saved it, `GET /response` answers with the same fields too, so the bytes on the wire are the
/// service's. It knows nothing of the service.
@main
struct BenchStaticServer {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard (3...4).contains(arguments.count), let port = Int(arguments[1]),
            let body = FileManager.default.contents(atPath: arguments[2])
        else { usage() }
        let bytes = ByteBuffer(bytes: body)
        let router = Router()
        router.get("page") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: bytes))
        }
        if arguments.count == 4 {
            guard let head = try? String(contentsOfFile: arguments[3], encoding: .utf8) else { usage() }
            let fields = responseFields(head)
            router.get("response") { _, _ -> Response in
                Response(status: .ok, headers: fields, body: .init(byteBuffer: bytes))
            }
        }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await application.runService()
    }

    /// The fields of a saved response head, without its status line and the fields Hummingbird writes itself.
    static func responseFields(_ head: String) -> HTTPFields {
        let written: Set<HTTPField.Name> = [.contentLength, .date, .connection, .transferEncoding]
        var fields = HTTPFields()
        for line in head.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":"),
                let name = HTTPField.Name(String(line[..<colon])), !written.contains(name)
            else { continue }
            fields.append(
                HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return fields
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: bench-static-server PORT FILE [HEAD]\n".utf8))
        exit(64)
    }
}
