import NIOCore

/// The client a trusted forwarder names in `X-Forwarded-For` or `Forwarded` (RFC 7239), read from the right.
///
/// Each forwarder appends the address it received the request from, so the entries right of the client were
/// written by trusted hops and everything left of it by the client, which can write anything. The walk skips
/// the entries that are trusted forwarders' own addresses and stops at the first that is not: the client (when
/// every entry is trusted, the leftmost one). Nothing left of the client is read, so a client cannot change the
/// address it counts under by prepending entries, valid or not.
///
/// The walk gives up, and the connection's client stands, when an entry it must read is malformed, `unknown`
/// or an obfuscated identifier (RFC 7239's `_hidden`), or when it would read more than `maximumHops` entries or
/// `maximumBytes` bytes. It never throws: what a forwarder sends never becomes an error response.
///
/// `X-Forwarded-For` entries are addresses separated by commas: `203.0.113.7`, `203.0.113.7:4711`,
/// `2001:db8::7`, `[2001:db8::7]` or `[2001:db8::7]:4711`. `Forwarded` elements are separated by commas outside
/// quoted strings, their parameters by semicolons; the client is the `for` parameter, a token (`for=203.0.113.7`)
/// or a quoted string, which an IPv6 address or a port needs (`for="[2001:db8::7]:4711"`). Empty entries (list
/// syntax allows them) are skipped.
enum ForwardedChain {
    /// Entries read at most, from the right: far more trusted hops than any deployment stacks.
    static let maximumHops = 16
    /// Bytes of the field's values read at most, from the right.
    static let maximumBytes = 4096

    /// What the field says about the client.
    enum Resolution: Equatable, Sendable {
        /// The field is absent or holds only empty entries: the connection's client stands.
        case absent
        /// The rightmost entry that is not a trusted forwarder (the leftmost entry when all are).
        case client(SocketAddress)
        /// The entry the walk had to read cannot name a client, for the reason given: the connection's client
        /// stands.
        case ignored(Reason)
    }

    /// Why a field was ignored; says nothing of the entries' values, so it can be logged.
    enum Reason: String, Equatable, Sendable, CustomStringConvertible {
        case malformed = "a malformed entry"
        case unknown = "an unknown client"
        case obfuscated = "an obfuscated identifier"
        case tooManyHops = "more trusted hops than the walk reads"
        case tooLong = "more bytes than the walk reads"

        var description: String { rawValue }
    }

    /// The client the `values` of `field` (its field lines in the order received) name, walking from the right
    /// past the addresses in `trusted`.
    static func client(in values: [String], field: TrustedForwarders.Field, trusted: TrustedProxies) -> Resolution {
        var hops = 0
        var budget = maximumBytes
        var leftmostTrusted: SocketAddress?
        for value in values.reversed() {
            var rest: Substring? = Substring(value)
            while let line = rest {
                let element: Substring.UTF8View
                switch lastElement(of: line, quoting: field == .forwarded, budget: &budget) {
                case .element(let last, let before):
                    element = trimmed(last)
                    rest = before
                case .unbalancedQuote: return .ignored(.malformed)
                case .tooLong: return .ignored(.tooLong)
                }
                if element.isEmpty { continue }
                hops += 1
                guard hops <= maximumHops else { return .ignored(.tooManyHops) }
                let node: Node
                switch field {
                case .xForwardedFor:
                    node = Self.node(Array(element), allowsBareIPv6: true, allowsObfuscatedPort: false)
                case .forwarded:
                    guard let client = forParameter(of: element) else { return .ignored(.malformed) }
                    node = Self.node(client, allowsBareIPv6: false, allowsObfuscatedPort: true)
                }
                switch node {
                case .address(let address):
                    guard trusted.contains(address) else { return .client(address) }
                    leftmostTrusted = address
                case .unknown: return .ignored(.unknown)
                case .obfuscated: return .ignored(.obfuscated)
                case .malformed: return .ignored(.malformed)
                }
            }
        }
        return leftmostTrusted.map(Resolution.client) ?? .absent
    }

    // MARK: - Elements, from the right

    private static let comma = UInt8(ascii: ",")
    private static let semicolon = UInt8(ascii: ";")
    private static let equals = UInt8(ascii: "=")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let colon = UInt8(ascii: ":")
    private static let openBracket = UInt8(ascii: "[")
    private static let closeBracket = UInt8(ascii: "]")
    private static let underscore = UInt8(ascii: "_")

    private enum Scan {
        /// The line's last element, and the line before the comma that precedes it (nil when there is none).
        case element(Substring, before: Substring?)
        /// A quoted string that does not start in the line.
        case unbalancedQuote
        /// The element goes past the bytes the walk may still read.
        case tooLong
    }

    /// The last element of `line`: what follows its last comma (outside a quoted string when `quoting`).
    /// Reading from the right, a quote ends a quoted string unless an odd number of backslashes precedes it
    /// (every backslash in a quoted string starts a quoted pair).
    private static func lastElement(of line: Substring, quoting: Bool, budget: inout Int) -> Scan {
        let utf8 = line.utf8
        var index = utf8.endIndex
        var inQuotes = false
        while index > utf8.startIndex {
            let previous = utf8.index(before: index)
            budget -= 1
            if budget < 0 { return .tooLong }
            let byte = utf8[previous]
            if inQuotes {
                if byte == quote, !isEscaped(utf8, at: previous, within: budget) { inQuotes = false }
            } else if quoting, byte == quote {
                inQuotes = true
            } else if byte == comma {
                return .element(Substring(utf8[index...]), before: Substring(utf8[..<previous]))
            }
            index = previous
        }
        return inQuotes ? .unbalancedQuote : .element(line, before: nil)
    }

    /// Whether the byte at `index` follows an odd number of backslashes. Counts no more than `limit` + 1 of
    /// them: a longer run is past the budget the caller is about to run out of anyway.
    private static func isEscaped(_ utf8: Substring.UTF8View, at index: String.Index, within limit: Int) -> Bool {
        var backslashes = 0
        var index = index
        while index > utf8.startIndex, backslashes <= limit {
            index = utf8.index(before: index)
            guard utf8[index] == backslash else { break }
            backslashes += 1
        }
        return backslashes % 2 == 1
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> Substring.UTF8View {
        var utf8 = text.utf8
        while let first = utf8.first, isWhitespace(first) { utf8.removeFirst() }
        while let last = utf8.last, isWhitespace(last) { utf8.removeLast() }
        return utf8
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    // MARK: - A Forwarded element

    /// The value of the one `for` parameter of a `Forwarded` element (`pair *( ";" pair )`, each pair a token,
    /// `=`, and a token or a quoted string; spaces around a pair are tolerated), its quoted pairs resolved; nil
    /// when the element is malformed, has no `for` or has two.
    private static func forParameter(of element: Substring.UTF8View) -> [UInt8]? {
        let bytes = Array(element)
        var index = 0
        var client: [UInt8]?
        func skipWhitespace() {
            while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        }
        func token() -> [UInt8]? {
            let start = index
            while index < bytes.count, isTokenCharacter(bytes[index]) { index += 1 }
            return index > start ? Array(bytes[start..<index]) : nil
        }
        func quotedString() -> [UInt8]? {
            index += 1
            var value: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                if byte == quote {
                    index += 1
                    return value
                }
                if byte == backslash {
                    guard index + 1 < bytes.count, isQuotedPairCharacter(bytes[index + 1]) else { return nil }
                    value.append(bytes[index + 1])
                    index += 2
                } else {
                    guard isQuotedTextCharacter(byte) else { return nil }
                    value.append(byte)
                    index += 1
                }
            }
            return nil
        }
        while true {
            skipWhitespace()
            guard let name = token(), index < bytes.count, bytes[index] == equals else { return nil }
            index += 1
            guard index < bytes.count, let value = bytes[index] == quote ? quotedString() : token() else { return nil }
            if name.count == 3, String(decoding: name, as: UTF8.self).lowercased() == "for" {
                guard client == nil else { return nil }
                client = value
            }
            skipWhitespace()
            if index == bytes.count { return client }
            guard bytes[index] == semicolon else { return nil }
            index += 1
        }
    }

    /// RFC 9110's `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// RFC 9110's `qdtext`: tab, space and visible characters but the quote and the backslash, and obs-text.
    private static func isQuotedTextCharacter(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x20 || byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
            || byte >= 0x80
    }

    /// What RFC 9110's `quoted-pair` may escape: tab, space, visible characters and obs-text.
    private static func isQuotedPairCharacter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x7E).contains(byte) || byte >= 0x80
    }

    // MARK: - A node

    /// What an entry names.
    private enum Node: Equatable {
        case address(SocketAddress)
        case unknown
        case obfuscated
        case malformed
    }

    /// The node of an entry: an IPv4 address with an optional port, an IPv6 address in brackets with an
    /// optional port or, when `allowsBareIPv6`, without brackets and port; `unknown`; or an obfuscated
    /// identifier. A port is decimal, or, when `allowsObfuscatedPort`, an obfuscated one (the address still
    /// counts); the address keeps a decimal port, 0 otherwise. Anything else is malformed: no host names, zone
    /// identifiers or spaces.
    private static func node(_ text: [UInt8], allowsBareIPv6: Bool, allowsObfuscatedPort: Bool) -> Node {
        guard let first = text.first else { return .malformed }
        if text.count == 7, String(decoding: text, as: UTF8.self).lowercased() == "unknown" { return .unknown }
        if first == underscore { return .obfuscated }
        let host: ArraySlice<UInt8>
        let portText: ArraySlice<UInt8>?
        let isIPv6: Bool
        if first == openBracket {
            guard let close = text.firstIndex(of: closeBracket) else { return .malformed }
            host = text[1..<close]
            let after = text[(close + 1)...]
            if after.isEmpty {
                portText = nil
            } else {
                guard after.first == colon else { return .malformed }
                portText = after.dropFirst()
            }
            isIPv6 = true
        } else {
            let colons = text.lazy.filter { $0 == colon }.count
            switch colons {
            case 0:
                host = text[...]
                portText = nil
                isIPv6 = false
            case 1:
                let separator = text.firstIndex(of: colon)!
                host = text[..<separator]
                portText = text[(separator + 1)...]
                isIPv6 = false
            default:
                guard allowsBareIPv6 else { return .malformed }
                host = text[...]
                portText = nil
                isIPv6 = true
            }
        }
        var port = 0
        if let portText {
            if portText.first == underscore {
                guard allowsObfuscatedPort, portText.count > 1, portText.allSatisfy(isObfuscatedCharacter) else {
                    return .malformed
                }
            } else {
                guard (1...5).contains(portText.count), portText.allSatisfy(isDigit),
                    let number = Int(String(decoding: portText, as: UTF8.self)), number <= 65_535
                else { return .malformed }
                port = number
            }
        }
        guard !host.isEmpty, host.allSatisfy(isIPv6 ? isIPv6Character : isIPv4Character),
            let address = try? SocketAddress(ipAddress: String(decoding: host, as: UTF8.self), port: port)
        else { return .malformed }
        switch address {
        case .v4 where !isIPv6, .v6 where isIPv6: return .address(address)
        default: return .malformed
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isIPv4Character(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: ".")
    }

    private static func isIPv6Character(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) || byte == colon || byte == UInt8(ascii: ".")
    }

    /// RFC 7239's `obfnode` and `obfport` characters after the underscore.
    private static func isObfuscatedCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: ".")
            || byte == underscore || byte == UInt8(ascii: "-")
    }
}
