import ArgumentParser
import TripHistoryApp

/// Where the database is and which migrations it is checked against: the flags of every command that
/// connects.
struct DatabaseFlags: ParsableArguments {
    @Option(
        name: Setting.databaseURL.names,
        help: ArgumentHelp(
            "libpq URI or conninfo string of the primary.",
            discussion: "Default: $TRIP_HISTORY_DATABASE_URL, else $DATABASE_URL.")
    )
    var databaseURL: String?

    @Option(name: Setting.databaseURL.fileNames, help: "A file holding the primary's connection string.")
    var databaseURLFile: String?

    @Option(
        name: Setting.migrations.names,
        help:
            "Folder of NNNN_name.sql migrations to use instead of those built into the binary. Default: $TRIP_HISTORY_MIGRATIONS, else the built-in ones."
    )
    var migrations: String?

    var given: GivenFlags {
        var given = GivenFlags()
        given.add(.databaseURL, databaseURL)
        given.add(.databaseURL, file: databaseURLFile)
        given.add(.migrations, migrations)
        return given
    }
}

/// The signing secrets; prefer the environment or a file, since flags are visible in the process list.
struct SecretFlags: ParsableArguments {
    @Option(
        name: Setting.secret.names,
        help:
            "The signing secret, at least 32 bytes. Default: $TRIP_HISTORY_SECRET. Prefer the variable or --secret-file."
    )
    var secret: String?

    @Option(
        name: Setting.secret.fileNames, help: "A file holding the signing secret. Default: $TRIP_HISTORY_SECRET_FILE.")
    var secretFile: String?

    var given: GivenFlags {
        var given = GivenFlags()
        given.add(.secret, secret)
        given.add(.secret, file: secretFile)
        return given
    }
}
