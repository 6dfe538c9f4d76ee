import ArgumentParser
import Foundation
import TripHistoryClient

/// `trip-history-client`: a rider's trips from the command line, through the client package.
@main
struct TripHistoryClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trip-history-client",
        abstract: "Read a rider's trips from the trip history service.",
        subcommands: [TripsCommand.self, TripCommand.self]
    )
}

/// Where the service is and who asks: flags, or the environment so tokens stay out of `ps`.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "The service's base URL (default: $TRIP_HISTORY_BASE_URL, else http://127.0.0.1:8080).")
    var baseURL: String?

    @Option(help: "A bearer token (default: $TRIP_HISTORY_TOKEN). Prefer the variable: flags show in ps.")
    var token: String?

    @Option(help: "Accept-Language for the display strings, e.g. 'fr-FR, en;q=0.5'.")
    var language: String?

    func client() throws -> TripHistoryClient {
        let environment = ProcessInfo.processInfo.environment
        let text = baseURL ?? environment["TRIP_HISTORY_BASE_URL"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("--base-url must be an http or https URL.")
        }
        guard let token = token ?? environment["TRIP_HISTORY_TOKEN"], !token.isEmpty else {
            throw ValidationError("Pass --token or set TRIP_HISTORY_TOKEN.")
        }
        return TripHistoryClient(serverURL: url, acceptLanguage: language) { token }
    }
}

/// How trips are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// Aligned columns of the display strings, for people.
    case table
    /// One JSON trip per line, for scripts.
    case ndjson
}

/// `trips`: one page of a rider's trips, or all of them with `--all`.
struct TripsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips", abstract: "List a rider's trips, newest first.")

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "The rider id.")
    var rider: String

    @Flag(help: "Follow the cursors to the last page.")
    var all = false

    @Option(
        help: "Trips requested on or after this day (YYYY-MM-DD) or RFC 3339 instant.", transform: Arguments.dateBound)
    var from: DateBound?

    @Option(help: "Trips requested before this day (YYYY-MM-DD) or RFC 3339 instant.", transform: Arguments.dateBound)
    var to: DateBound?

    @Option(help: "IANA zone of day bounds and display strings, e.g. Europe/Paris.")
    var tz: String?

    @Option(help: "completed or canceled.", transform: Arguments.status)
    var status: TripStatus?

    @Option(help: "Trips per page, 1 to 100.")
    var limit: Int?

    @Option(help: "Start at this cursor (a next or prev cursor printed before).")
    var cursor: String?

    @Option(help: "table or ndjson.")
    var format: OutputFormat = .table

    func run() async throws {
        let filter = TripFilter(from: from, to: to, status: status, timeZone: tz, pageSize: limit)
        let client = try connection.client()
        var printer = TripPrinter(format: format)
        do {
            for try await page in client.pages(rider: rider, filter: filter, from: cursor) {
                for trip in page.trips { printer.print(trip) }
                if !all {
                    if let next = page.nextCursor { printer.note("next cursor: \(next)") }
                    break
                }
            }
        } catch let error as TripHistoryError {
            throw ExitMessage(error)
        }
    }
}

/// `trip`: one trip.
struct TripCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trip", abstract: "Show one trip of a rider.")

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "The rider id.")
    var rider: String

    @Option(help: "The trip id.")
    var id: String

    @Option(help: "IANA zone of the display strings.")
    var tz: String?

    @Option(help: "table or ndjson.")
    var format: OutputFormat = .table

    func run() async throws {
        var printer = TripPrinter(format: format)
        do {
            printer.print(try await connection.client().trip(rider: rider, id: id, timeZone: tz))
        } catch let error as TripHistoryError {
            throw ExitMessage(error)
        }
    }
}

/// Reads the client's types from arguments: conversions rather than conformances, since neither the types nor
/// `ExpressibleByArgument` belong to this command.
enum Arguments {
    static func dateBound(_ text: String) throws -> DateBound {
        guard let bound = DateBound(text) else {
            throw ValidationError("'\(text)' is neither a day (YYYY-MM-DD) nor an RFC 3339 instant.")
        }
        return bound
    }

    static func status(_ text: String) throws -> TripStatus {
        guard let status = TripStatus(rawValue: text) else {
            throw ValidationError("'\(text)' is not a status: completed or canceled.")
        }
        return status
    }
}

/// A failure as one line on stderr and exit status 1.
struct ExitMessage: Error, CustomStringConvertible {
    let description: String

    init(_ error: TripHistoryError) {
        var text = error.code ?? "\(error.kind)"
        if let status = error.status { text += " (HTTP \(status))" }
        if let param = error.param { text += ", param \(param)" }
        if let detail = error.detail { text += ": \(detail)" }
        if let requestID = error.requestID { text += " [request \(requestID)]" }
        description = text
    }
}

/// Prints trips as a table or as NDJSON on stdout; notes go to stderr.
struct TripPrinter {
    let format: OutputFormat
    private var printedHeader = false
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(format: OutputFormat) {
        self.format = format
    }

    mutating func print(_ trip: Trip) {
        switch format {
        case .ndjson:
            // A Trip always encodes (strings, numbers and dates only).
            if let line = try? encoder.encode(trip) {
                FileHandle.standardOutput.write(line + Data("\n".utf8))
            }
        case .table:
            if !printedHeader {
                printedHeader = true
                row(["id", "date", "time", "status", "fare", "distance", "duration", "title"])
            }
            let display = trip.display
            row([
                trip.id, display.date, display.time, display.status, display.fare, display.distance,
                display.duration, display.title,
            ])
        }
    }

    func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private func row(_ cells: [String]) {
        let widths = [8, 14, 10, 10, 10, 9, 9, 0]
        let padded = zip(cells, widths).map { cell, width in
            width == 0 ? cell : cell + String(repeating: " ", count: max(1, width - cell.count))
        }
        Swift.print(padded.joined())
    }
}
