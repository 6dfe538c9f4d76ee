import Crypto
import Foundation

/// One `NNNN_name.sql` file: its version, its name without the extension, its SQL and the SHA-256 of its bytes.
struct MigrationFile: Hashable, Sendable {
    let version: Int
    let name: String
    let sql: String
    let checksum: String

    /// Every migration file of `source`, ordered by version.
    static func load(from source: MigrationSource) throws(MigrationError) -> [MigrationFile] {
        switch source {
        case .embedded:
            return try parse(EmbeddedMigrations.files.map { ($0.name, Data($0.bytes)) })
        case .directory(let directory):
            return try load(from: directory)
        }
    }

    /// Every migration file in `directory`, ordered by version. Other files are ignored.
    static func load(from directory: URL) throws(MigrationError) -> [MigrationFile] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unreadableDirectory(directory.path)
        }
        var contents: [(String, Data)] = []
        for entry in entries.sorted() where entry.hasSuffix(".sql") {
            guard let bytes = FileManager.default.contents(atPath: directory.appendingPathComponent(entry).path) else {
                throw .unreadableDirectory(entry)
            }
            contents.append((entry, bytes))
        }
        return try parse(contents)
    }

    /// The migrations of `NNNN_name.sql` files given by name and bytes, ordered by version.
    private static func parse(_ contents: [(name: String, bytes: Data)]) throws(MigrationError) -> [MigrationFile] {
        var files: [MigrationFile] = []
        for (entry, bytes) in contents {
            let name = String(entry.dropLast(4))
            let digits = name.prefix(while: \.isASCII).prefix(while: \.isNumber)
            guard digits.count == 4, let version = Int(digits), name.dropFirst(4).first == "_", name.count > 5 else {
                throw .invalidFileName(entry)
            }
            guard let sql = String(bytes: bytes, encoding: .utf8) else { throw .unreadableDirectory(entry) }
            if files.contains(where: { $0.version == version }) { throw .duplicateVersion(version) }
            files.append(MigrationFile(version: version, name: name, sql: sql, checksum: Self.sha256Hex(bytes)))
        }
        return files.sorted { $0.version < $1.version }
    }

    static func sha256Hex(_ bytes: Data) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
