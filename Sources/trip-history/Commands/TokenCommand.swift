public import ArgumentParser
import Foundation
public import TripHistoryAPI
import TripHistoryApp
import TripHistoryDomain
import TripHistoryHTTP

/// `trip-history token`: prints a bearer token, for demos, scripts and load tests.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a bearer token, or one rider token per line with --riders."
    )

    @Option(help: "rider, analyst or service.")
    var role: AccessTokens.Role

    @Option(help: "The rider id (--role rider needs it or --riders).")
    var rider: Int64?

    @Option(
        help: ArgumentHelp(
            "A range of rider ids, FIRST-LAST: prints one 'rider_id<TAB>token' line per rider, in id order.",
            valueName: "range"
        )
    )
    var riders: RiderIDRange?

    @Option(help: "Subject of an analyst or service token.")
    var subject: String?

    @Option(help: "Lifetime in seconds: at most 604800 (a week) for riders, 86400 for analysts, 2592000 for services.")
    var ttl: Int = 3600

    @OptionGroup var secret: SecretFlags

    func validate() throws {
        let maximum = role.maximumTimeToLive.components.seconds
        guard ttl > 0, ttl <= maximum else {
            throw ValidationError("--ttl must be from 1 to \(maximum) seconds for a \(role.rawValue) token.")
        }
        if riders != nil {
            guard role == .rider else { throw ValidationError("--riders needs --role rider.") }
            guard rider == nil else { throw ValidationError("Pass --rider or --riders, not both.") }
        } else if role == .rider, rider.flatMap(RiderID.init) == nil {
            throw ValidationError("--role rider needs --rider with a positive id, or --riders FIRST-LAST.")
        }
        if let subject, subject.isEmpty || subject.utf8.count > AccessTokens.maximumSubjectBytes {
            throw ValidationError("--subject must be 1 to \(AccessTokens.maximumSubjectBytes) bytes.")
        }
    }

    func run() async throws {
        let settings = try secret.given.settings(environment: ProcessInfo.processInfo.environment)
        let tokens = await AccessTokens(secret: try usageErrors { try ServiceSecret.current(settings) })
        if let riders {
            let output = FileHandle.standardOutput
            try await tokens.writeRiderTokens(for: riders, timeToLive: .seconds(ttl)) { chunk in
                try output.write(contentsOf: chunk)
            }
            return
        }
        let subject: String =
            switch role {
            case .rider: String(rider ?? 0)
            case .analyst: self.subject ?? "analyst"
            case .service: self.subject ?? "trip-ingest"
            case .privacy: self.subject ?? "privacy-desk"
            }
        print(try await tokens.issue(role: role, subject: subject, timeToLive: .seconds(ttl)))
    }
}

extension AccessTokens.Role: ExpressibleByArgument {}

extension RiderIDRange: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}
