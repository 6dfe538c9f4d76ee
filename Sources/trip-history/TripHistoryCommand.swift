import ArgumentParser

/// The `trip-history` executable: parses arguments and hands over to a subcommand.
@main
struct TripHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trip-history",
        abstract: "Riders' trip history over a cursor-paginated JSON API, stored in PostgreSQL.",
        subcommands: [ServeCommand.self, MigrateCommand.self, SeedCommand.self, TokenCommand.self]
    )
}
