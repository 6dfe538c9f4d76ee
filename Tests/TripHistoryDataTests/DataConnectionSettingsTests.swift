import Foundation
import Testing
import TripHistoryDataTestSupport

@testable import TripHistoryData

#if canImport(Glibc)
import Glibc
#endif

/// TCP keepalives and a TCP user timeout on every connection, read back from the kernel's socket options;
/// the connection string's own settings, as a URI or as `key=value` pairs, win. The client encoding is UTF8
/// whatever the connection string asks for.
@Suite struct DataConnectionSettingsTests {
    struct TCPSettings: Equatable {
        var keepalive: Int32?
        var idle: Int32?
        var interval: Int32?
        var count: Int32?
        var userTimeoutMilliseconds: Int32?
    }

    private static func settings(_ connection: PostgresConnection) -> TCPSettings {
        func option(_ level: Int32, _ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(connection.socketDescriptor, level, name, &value, &length) == 0 else { return nil }
            return value
        }
        let tcp = Int32(IPPROTO_TCP)
        return TCPSettings(
            keepalive: option(SOL_SOCKET, SO_KEEPALIVE), idle: option(tcp, TCP_KEEPIDLE),
            interval: option(tcp, TCP_KEEPINTVL), count: option(tcp, TCP_KEEPCNT),
            userTimeoutMilliseconds: option(tcp, TCP_USER_TIMEOUT)
        )
    }

    private static let defaults = TCPSettings(
        keepalive: 1, idle: 5, interval: 2, count: 3, userTimeoutMilliseconds: 11000)

    @Test func connectionsHaveKeepalivesAndAUserTimeout() async throws {
        let connection = try PostgresConnection(connectionString: try DataTestDatabase.connectionString())
        #expect(Self.settings(connection) == Self.defaults)
        try await DataTestDatabase.withPool { pool in
            let lent = try await pool.withConnection { Self.settings($0) }
            #expect(lent == Self.defaults)
        }
    }

    @Test func theConnectionStringsOwnSettingsWin() throws {
        let uri = try DataTestDatabase.connectionString()
        let expected = TCPSettings(keepalive: 1, idle: 30, interval: 2, count: 3, userTimeoutMilliseconds: 4000)
        let fromURI = try PostgresConnection(
            connectionString: uri + (uri.contains("?") ? "&" : "?") + "keepalives_idle=30&tcp_user_timeout=4000")
        #expect(Self.settings(fromURI) == expected)

        let components = try #require(URLComponents(string: uri))
        let conninfo = [
            "host=\(components.host ?? "127.0.0.1")", "port=\(components.port ?? 5432)",
            "user=\(components.user ?? "postgres")", "dbname=\(components.path.dropFirst())",
            "keepalives_idle=30", "tcp_user_timeout=4000",
        ].joined(separator: " ")
        let fromPairs = try PostgresConnection(connectionString: conninfo)
        #expect(Self.settings(fromPairs) == expected)
    }

    /// A connection string cannot move the session off UTF-8, in which the service writes and reads text:
    /// `SHOW client_encoding` says UTF8, and the server reads text outside Latin-1 as the characters sent
    /// (under LATIN1 it would count each UTF-8 byte as a character, and hand the same bytes back).
    @Test(arguments: ["client_encoding=LATIN1", "client_encoding=SQL_ASCII", "options=-cclient_encoding%3DLATIN1"])
    func theClientEncodingIsUTF8WhateverTheConnectionStringSays(setting: String) throws {
        let uri = try DataTestDatabase.connectionString()
        #expect(uri.hasPrefix("postgres://") || uri.hasPrefix("postgresql://"), "the test appends URI parameters")
        let connection = try PostgresConnection(connectionString: uri + (uri.contains("?") ? "&" : "?") + setting)
        #expect(try connection.query("SHOW client_encoding").string(0, 0) == "UTF8")
        let text = "東京 – Zürich ✓"
        #expect(try connection.query("SELECT \(text)::text").string(0, 0) == text)
        #expect(
            try connection.query("SELECT char_length(\(text)::text)").int64(0, 0) == Int64(text.unicodeScalars.count))
    }

    @Test func theClientEncodingIsUTF8WithConninfoPairsToo() throws {
        let components = try #require(URLComponents(string: try DataTestDatabase.connectionString()))
        let conninfo = [
            "host=\(components.host ?? "127.0.0.1")", "port=\(components.port ?? 5432)",
            "user=\(components.user ?? "postgres")", "dbname=\(components.path.dropFirst())",
            "client_encoding=LATIN1",
        ].joined(separator: " ")
        let connection = try PostgresConnection(connectionString: conninfo)
        #expect(try connection.query("SHOW client_encoding").string(0, 0) == "UTF8")
    }
}
