import ArgumentParser
import TripHistoryApp

/// Where the database is and which migrations it is checked against: the flags of every command that
/// connects.
struct DatabaseFlags: ParsableArguments {
    @Option(name: Setting.databaseURL.names, help: Setting.databaseURL.argumentHelp)
    var databaseURL: String?

    @Option(name: Setting.databaseURL.fileNames, help: Setting.databaseURL.fileArgumentHelp)
    var databaseURLFile: String?

    @Option(name: Setting.migrations.names, help: Setting.migrations.argumentHelp)
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
    @Option(name: Setting.secret.names, help: Setting.secret.argumentHelp)
    var secret: String?

    @Option(name: Setting.secret.fileNames, help: Setting.secret.fileArgumentHelp)
    var secretFile: String?

    var given: GivenFlags {
        var given = GivenFlags()
        given.add(.secret, secret)
        given.add(.secret, file: secretFile)
        return given
    }
}
