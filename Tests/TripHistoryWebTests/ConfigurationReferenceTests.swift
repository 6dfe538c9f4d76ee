import Foundation
import Testing
import TripHistoryApp
import TripHistoryDataTestSupport
import TripHistoryTestSupport

/// `docs/configuration.md` against the code, in both directions: every environment variable the sources read
/// and every flag of every `trip-history` command is named there in backticks, and the page names no other.
///
/// Variables are the settings catalogue's (`Setting.all`: each setting's name, aliases and secret file), and
/// those found in the string literals of `Sources/**/*.swift` (comments are skipped): every
/// `TRIP_HISTORY_...` and `OTEL_...` name written in a literal (swift-otel reads the latter, the sources list
/// the ones the service documents), and every literal that subscripts an `environment` or is passed
/// to `getenv` (`DATABASE_URL`, `LOG_LEVEL`). A name built by interpolation (`"TRIP_HISTORY_RATE_LIMIT_\(suffix)"`)
/// is known by its prefix only: the page must name at least one variable with that prefix, and each one it
/// names must be spelled out in some literal (its flag's help does). Flags are found the way a user finds them:
/// by running the built `trip-history` with `--help` for the root command and each subcommand; the test fails,
/// never skips, when that executable is not built. argument-parser's own flags are left out on both sides.
@Suite struct ConfigurationReferenceTests {
    /// The repository root, from this file's path (`<root>/Tests/TripHistoryWebTests/...`).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let referencePath = "docs/configuration.md"
    /// The flags argument-parser adds to every command by itself.
    static let builtInFlags: Set<String> = [
        "--help", "--version", "--generate-completion-script", "--experimental-dump-help",
    ]

    @Test func everyEnvironmentVariableTheSourcesReadIsDocumentedAndNoOther() throws {
        let read = try Self.variablesReadBySources()
        let documented = try DocumentedNames(markdown: Self.reference())
        #expect(read.names.contains("TRIP_HISTORY_SECRET") && read.names.contains("DATABASE_URL"))
        for name in read.names.sorted() where !documented.uppercaseWords.contains(name) {
            Issue.record("\(Self.referencePath) does not name `\(name)`, which Sources/ reads")
        }
        for prefix in read.prefixes.sorted() where !documented.variables.contains(where: { $0.hasPrefix(prefix) }) {
            Issue.record("\(Self.referencePath) names no variable of the form `\(prefix)...`, which Sources/ builds")
        }
        // A name the code builds by interpolation (`"TRIP_HISTORY_RATE_LIMIT_\(suffix)"`) counts as read only where
        // a literal also spells it out (its flag's help does), so a misspelt one is still found.
        for name in documented.variables.sorted() where !read.names.contains(name) {
            let built = read.prefixes.first { name.hasPrefix($0) }
            let hint = built.map { "; names built from `\($0)` must also be written out in a literal" } ?? ""
            Issue.record("\(Self.referencePath) names `\(name)`, which no file in Sources/ reads\(hint)")
        }
    }

    @Test func everyFlagOfEveryCommandIsDocumentedAndNoOther() async throws {
        let executable = try #require(
            Self.executable(),
            """
            No built trip-history executable next to the test binary (looked in \
            \(Self.executableDirectories().map(\.path).joined(separator: ", "))); \
            build it with `swift build --build-tests`, which builds every product.
            """
        )
        let flags = try await Self.flagsByCommand(executable)
        let documented = try DocumentedNames(markdown: Self.reference()).flags.subtracting(Self.builtInFlags)
        #expect(flags.keys.contains("--database-url") && flags.keys.contains("--riders"))
        for (flag, commands) in flags.sorted(by: { $0.key < $1.key }) where !documented.contains(flag) {
            Issue.record(
                "\(Self.referencePath) does not name `\(flag)`, a flag of \(commands.sorted().joined(separator: ", "))")
        }
        for flag in documented.sorted() where flags[flag] == nil {
            Issue.record("\(Self.referencePath) names `\(flag)`, which no trip-history command takes")
        }
    }

    @Test func literalsAreFoundOutsideCommentsAndAroundInterpolations() {
        let source = #"""
            // let ignored = "TRIP_HISTORY_IN_A_COMMENT"
            /* "TRIP_HISTORY_IN_A_BLOCK" /* nested */ "TRIP_HISTORY_STILL_IN_IT" */
            let level = environment["LOG_LEVEL"] ?? "info"
            let name = "TRIP_HISTORY_RATE_LIMIT_\(suffix.uppercased(with: "\(Locale(identifier: "en"))"))"
            let help = "Default: $TRIP_HISTORY_CACHE_TTL_SECONDS, else 30."
            let raw = #"a "quoted" TRIP_HISTORY_RAW name"#
            """#
        let read = Self.variables(inSwiftSource: source)
        #expect(read.names == ["LOG_LEVEL", "TRIP_HISTORY_CACHE_TTL_SECONDS", "TRIP_HISTORY_RAW"])
        #expect(read.prefixes == ["TRIP_HISTORY_RATE_LIMIT_"])
    }

    @Test func helpTextsGiveSubcommandsAndLongFlags() {
        let help = """
            USAGE: trip-history serve [--host <host>] [--no-cache]

            OPTIONS:
              --host <host>           Address to listen on. See --port for
                                      the port. (default: 127.0.0.1)
              --[no-]color            Colors.
              --no-cache              Serve every read from PostgreSQL.
              --metrics/--no-metrics  The metrics listener.
              -h, --help              Show help information.

            SUBCOMMANDS:
              serve                   Serve the HTTP API.
              token (default)         Print a bearer token.

              See 'trip-history help <subcommand>' for detailed help.
            """
        let parsed = HelpText(help)
        #expect(parsed.subcommands == ["serve", "token"])
        #expect(
            parsed.flags == ["--host", "--color", "--no-color", "--no-cache", "--metrics", "--no-metrics", "--help"])
    }

    // MARK: - The reference

    static func reference() throws -> String {
        try String(contentsOf: root.appendingPathComponent(referencePath), encoding: .utf8)
    }

    // MARK: - Variables in the sources

    /// Names read from the environment, and prefixes of names built by interpolation.
    struct ReadVariables: Equatable {
        var names: Set<String> = []
        var prefixes: Set<String> = []
    }

    /// The variables of the settings catalogue (`Setting.all`), which `SettingsReader` reads by name: each
    /// setting's own, its aliases and, for a secret, its file's.
    static func catalogueVariables() -> Set<String> {
        var names = Set<String>()
        for setting in Setting.all {
            names.insert(setting.environmentName)
            if setting.isSecret { names.insert(setting.fileEnvironmentName) }
            names.formUnion(setting.aliases.filter { !$0.isFlag }.map(\.name))
        }
        return names
    }

    static func variablesReadBySources() throws -> ReadVariables {
        let sources = root.appendingPathComponent("Sources")
        guard let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
            throw MissingSources(path: sources.path)
        }
        var read = ReadVariables()
        for case let file as URL in files where file.pathExtension == "swift" {
            let found = variables(inSwiftSource: try String(contentsOf: file, encoding: .utf8))
            read.names.formUnion(found.names)
            read.prefixes.formUnion(found.prefixes)
        }
        read.names.formUnion(catalogueVariables())
        return read
    }

    static func variables(inSwiftSource source: String) -> ReadVariables {
        var read = ReadVariables()
        for literal in SwiftStringLiterals(source).literals {
            if literal.subscriptsEnvironment, let name = String(bytes: literal.text, encoding: .utf8),
                !literal.text.contains(SwiftStringLiterals.interpolation)
            {
                read.names.insert(name)
            }
            for prefix in ["TRIP_HISTORY_", "OTEL_"] {
                let found = serviceVariables(in: literal.text, prefix: prefix)
                read.names.formUnion(found.names)
                read.prefixes.formUnion(found.prefixes)
            }
        }
        return read
    }

    /// Every name starting with `prefix` (`TRIP_HISTORY_`) in a literal's text; one that runs into an
    /// interpolation is a prefix.
    static func serviceVariables(in text: [UInt8], prefix: String = "TRIP_HISTORY_") -> ReadVariables {
        let prefix = Array(prefix.utf8)
        var read = ReadVariables()
        var index = 0
        while index + prefix.count <= text.count {
            guard text[index..<index + prefix.count].elementsEqual(prefix),
                index == 0 || !isNameByte(text[index - 1])
            else {
                index += 1
                continue
            }
            var end = index + prefix.count
            while end < text.count, isUppercaseNameByte(text[end]) { end += 1 }
            let run = String(decoding: text[index..<end], as: UTF8.self)
            if end < text.count, text[end] == SwiftStringLiterals.interpolation {
                read.prefixes.insert(run)
            } else if end == text.count || !isNameByte(text[end]) {
                let name = String(run.reversed().drop(while: { $0 == "_" }).reversed())
                if name.count > prefix.count { read.names.insert(name) }
            }
            index = end
        }
        return read
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isUppercaseNameByte(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    static func isUppercaseNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    // MARK: - Flags of the executable

    /// Where `trip-history` is built: beside the test binary (Linux), or beside the `.xctest` bundle (Apple
    /// platforms), both in `.build/<triple>/debug/`.
    static func executableDirectories() -> [URL] {
        let paths =
            [CommandLine.arguments.first, Bundle.main.executablePath].compactMap { $0 }
            + Bundle.allBundles.map(\.bundlePath)
        var directories: [URL] = []
        for path in paths {
            var url = URL(fileURLWithPath: path).resolvingSymlinksInPath()
            if let bundle = url.pathComponents.lastIndex(where: { $0.hasSuffix(".xctest") }) {
                url = URL(fileURLWithPath: NSString.path(withComponents: Array(url.pathComponents[..<bundle])))
            } else {
                url = url.deletingLastPathComponent()
            }
            if !directories.contains(url) { directories.append(url) }
        }
        return directories
    }

    static func executable() -> URL? {
        executableDirectories().lazy.map { $0.appendingPathComponent("trip-history") }.first { candidate in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory)
                && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: candidate.path)
        }
    }

    /// Every long flag of the root command and its subcommands (recursively), with the commands that take it.
    static func flagsByCommand(_ executable: URL) async throws -> [String: Set<String>] {
        var flags: [String: Set<String>] = [:]
        var pending: [[String]] = [[]]
        while let command = pending.popLast() {
            let help = HelpText(try await help(executable, command))
            let name = (["trip-history"] + command).joined(separator: " ")
            for flag in help.flags.subtracting(builtInFlags) { flags[flag, default: []].insert(name) }
            pending += help.subcommands.map { command + [$0] }
        }
        return flags
    }

    static func help(_ executable: URL, _ command: [String]) async throws -> String {
        let result = try await ProcessOutput.run(executable, command + ["--help"])
        guard result.status == 0 else {
            throw HelpFailed(command: command, status: result.status, output: result.output)
        }
        return result.output
    }

    struct HelpFailed: Error, CustomStringConvertible {
        let command: [String]
        let status: Int32
        let output: String
        var description: String {
            "trip-history \((command + ["--help"]).joined(separator: " ")) exited with \(status):\n\(output)"
        }
    }

    struct MissingSources: Error, CustomStringConvertible {
        let path: String
        var description: String { "cannot list the sources in \(path)" }
    }
}

/// What an argument-parser help text lists: its subcommands, and the long names of its options and flags.
///
/// Entries stand two spaces in, under a heading that ends with a colon (`OPTIONS:`, `SUBCOMMANDS:`, or an
/// option group's own title); their wrapped descriptions stand further in, so flags named in a description are
/// not taken for the command's own.
struct HelpText {
    private(set) var subcommands: [String] = []
    private(set) var flags: Set<String> = []

    init(_ text: String) {
        var section = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, !first.isWhitespace {
                section = line.hasSuffix(":") ? String(line.dropLast()) : ""
                continue
            }
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }
            let entry = line.dropFirst(2)
            if section == "SUBCOMMANDS" {
                // A command name is lowercase; the closing "See '... help <subcommand>'" line is not one.
                let name = entry.prefix { !$0.isWhitespace }
                if !name.isEmpty, name != "help",
                    name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
                {
                    subcommands.append(String(name))
                }
            } else if section != "USAGE" && entry.hasPrefix("-") {
                let signature = entry.range(of: "  ").map { entry[..<$0.lowerBound] } ?? entry
                // A switch is written `--name/--no-name`.
                for word in signature.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" })
                where word.hasPrefix("--") {
                    flags.formUnion(Self.longNames(word.dropFirst(2)))
                }
            }
        }
    }

    /// `name`, or `name` and `no-name` for `[no-]name`; a value placeholder or `...` is not part of it.
    private static func longNames(_ word: Substring) -> [String] {
        let inversion = "[no-]"
        let negatable = word.hasPrefix(inversion)
        let name = (negatable ? word.dropFirst(inversion.count) : word).prefix {
            $0.isLetter || $0.isNumber || $0 == "-"
        }
        guard !name.isEmpty else { return [] }
        return negatable ? ["--\(name)", "--no-\(name)"] : ["--\(name)"]
    }
}

/// The names written in backticks in a Markdown page (in code spans and fenced blocks).
struct DocumentedNames {
    /// Words in `UPPER_SNAKE_CASE` with at least one underscore: environment variables.
    private(set) var variables: Set<String> = []
    /// Every all-uppercase word, so a variable without an underscore can still be found as documented.
    private(set) var uppercaseWords: Set<String> = []
    /// Long flags, `--kebab-case`.
    private(set) var flags: Set<String> = []

    init(markdown: String) {
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence {
                scan(line)
            } else {
                for (index, span) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                where index % 2 == 1 {
                    scan(span)
                }
            }
        }
    }

    private mutating func scan(_ code: Substring) {
        let isWordCharacter: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        for word in code.split(whereSeparator: { !isWordCharacter($0) }) {
            guard let first = word.first, first.isUppercase, word.allSatisfy({ !$0.isLowercase }) else { continue }
            uppercaseWords.insert(String(word))
            if word.contains("_") && !word.hasSuffix("_") { variables.insert(String(word)) }
        }
        var position = code.startIndex
        while let range = code[position...].range(of: "--") {
            let before: Character =
                range.lowerBound > code.startIndex ? code[code.index(before: range.lowerBound)] : " "
            let name = code[range.upperBound...].prefix { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
            if !(before.isLetter || before.isNumber || before == "-"), let first = name.first, first.isLetter {
                flags.insert("--\(name)")
            }
            position = name.endIndex
        }
    }
}

/// The string literals of a Swift source file, each with whether it subscripts an `environment` (or is passed
/// to `getenv`). Comments are skipped (nested block comments too); plain, raw (`#"..."#`) and multi-line
/// literals are read; an interpolation stands as one `interpolation` byte in its literal's text, and literals
/// inside it are literals too.
struct SwiftStringLiterals {
    struct Literal {
        var text: [UInt8]
        var subscriptsEnvironment: Bool
    }

    static let interpolation: UInt8 = 0

    private(set) var literals: [Literal] = []
    private let bytes: [UInt8]
    private var index = 0

    init(_ source: String) {
        bytes = Array(source.utf8)
        scanCode(untilClosingParenthesis: false)
    }

    private func byte(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func scanCode(untilClosingParenthesis: Bool) {
        var depth = 0
        while let current = byte() {
            switch current {
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/"):
                while let next = byte(), next != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
                skipBlockComment()
            case UInt8(ascii: "#"), UInt8(ascii: "\""):
                var hashes = 0
                while byte(hashes) == UInt8(ascii: "#") { hashes += 1 }
                if byte(hashes) == UInt8(ascii: "\"") {
                    scanLiteral(hashes: hashes)
                } else {
                    index += max(hashes, 1)
                }
            case UInt8(ascii: "("):
                depth += 1
                index += 1
            case UInt8(ascii: ")"):
                index += 1
                if untilClosingParenthesis && depth == 0 { return }
                depth -= 1
            default:
                index += 1
            }
        }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while byte() != nil {
            if byte() == UInt8(ascii: "/") && byte(1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if byte() == UInt8(ascii: "*") && byte(1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                index += 1
            }
        }
    }

    private func matches(_ quotes: Int, then hashes: Int, at offset: Int = 0) -> Bool {
        (0..<quotes).allSatisfy { byte(offset + $0) == UInt8(ascii: "\"") }
            && (0..<hashes).allSatisfy { byte(offset + quotes + $0) == UInt8(ascii: "#") }
    }

    private mutating func scanLiteral(hashes: Int) {
        let subscriptsEnvironment = isEnvironmentRead(before: index)
        index += hashes
        let quotes = matches(3, then: 0) ? 3 : 1
        index += quotes
        var text: [UInt8] = []
        while let current = byte() {
            if current == UInt8(ascii: "\"") && matches(quotes, then: hashes) {
                index += quotes + hashes
                break
            }
            if current == UInt8(ascii: "\\") && (0..<hashes).allSatisfy({ byte(1 + $0) == UInt8(ascii: "#") }) {
                index += 1 + hashes
                if byte() == UInt8(ascii: "(") {
                    index += 1
                    text.append(Self.interpolation)
                    scanCode(untilClosingParenthesis: true)
                } else if let escaped = byte() {
                    text.append(escaped)
                    index += 1
                }
                continue
            }
            if quotes == 1 && current == UInt8(ascii: "\n") { break }
            text.append(current)
            index += 1
        }
        literals.append(Literal(text: text, subscriptsEnvironment: subscriptsEnvironment))
    }

    /// Whether the literal opening at `start` is the key of `...environment[` or the argument of `getenv(`.
    private func isEnvironmentRead(before start: Int) -> Bool {
        var position = start - 1
        func skipSpaces() { while position >= 0, bytes[position] == UInt8(ascii: " ") { position -= 1 } }
        skipSpaces()
        guard position >= 0, bytes[position] == UInt8(ascii: "[") || bytes[position] == UInt8(ascii: "(") else {
            return false
        }
        let opener = bytes[position]
        position -= 1
        skipSpaces()
        let end = position + 1
        while position >= 0, ConfigurationReferenceTests.isNameByte(bytes[position]) { position -= 1 }
        let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        return opener == UInt8(ascii: "[") ? name.lowercased().hasSuffix("environment") : name == "getenv"
    }
}
