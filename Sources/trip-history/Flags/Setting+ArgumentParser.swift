import ArgumentParser
import TripHistoryApp

/// The flag names of a setting: its own, then its flag aliases.
extension Setting {
    var names: NameSpecification {
        NameSpecification(
            [.customLong(flagName)] + aliases.filter(\.isFlag).map { .customLong(String($0.name.dropFirst(2))) })
    }

    var fileNames: NameSpecification { .customLong(fileFlagName) }

    /// The flag's help from the catalogue: what it does, then `Default: $TRIP_HISTORY_X, else 8.`
    var argumentHelp: ArgumentHelp { ArgumentHelp(helpWithDefault) }

    /// The help of a command that reads the setting its own way: `abstract`, then its variable and `fallback`.
    func argumentHelp(_ abstract: String, else fallback: String) -> ArgumentHelp {
        ArgumentHelp(help(abstract, else: fallback))
    }

    /// The help of the flag naming a file the secret is read from.
    var fileArgumentHelp: ArgumentHelp {
        ArgumentHelp("A file holding the value of \(flag). Default: $\(fileEnvironmentName).")
    }
}

/// The flags given, as the settings they set; a switch's as `on` or `off`.
struct GivenFlags {
    private(set) var values: [Setting: String] = [:]
    private(set) var files: [Setting: String] = [:]

    mutating func add(_ setting: Setting, _ value: String?) {
        if let value { values[setting] = value }
    }

    mutating func add(_ setting: Setting, on: Bool?) { add(setting, on.map { $0 ? "on" : "off" }) }

    mutating func add(_ setting: Setting, file: String?) {
        if let file { files[setting] = file }
    }

    mutating func add(_ other: GivenFlags) {
        values.merge(other.values) { $1 }
        files.merge(other.files) { $1 }
    }

    /// The settings of this run: these flags over `environment`.
    func settings(environment: [String: String], arguments: [String] = CommandLine.arguments) throws -> SettingsReader {
        try usageErrors {
            try SettingsReader(flags: values, secretFiles: files, arguments: arguments, environment: environment)
        }
    }
}

/// `body`'s result, with a setting that cannot be used reported as a usage error (exit status 64), like a
/// malformed flag.
func usageErrors<Value>(_ body: () throws -> Value) throws -> Value {
    do {
        return try body()
    } catch let error as ConfigurationError {
        throw ValidationError(error.description)
    }
}
