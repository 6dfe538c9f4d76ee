import ArgumentParser
import TripHistoryWeb

/// The `trip-history` executable: parses arguments and hands over to a subcommand.
@main
struct TripHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trip-history",
        abstract: "Riders' trip history over a cursor-paginated JSON API, stored in PostgreSQL.",
        // The API's version, from the OpenAPI document built in (`CHANGELOG.md` says what each one changed).
        version: EmbeddedOpenAPIDocument.version ?? "unknown",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, SeedCommand.self, TokenCommand.self, ErasuresCommand.self,
            RemoveExpiredCommand.self, PartitionTripsCommand.self, PlacementCommand.self,
        ]
    )
}
