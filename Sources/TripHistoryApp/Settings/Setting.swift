import Configuration

/// One setting of `trip-history`, named once: its environment variable, `TRIP_HISTORY_` and the setting's
/// words in capitals (`TRIP_HISTORY_DB_POOL_SIZE`), and its flag, the same words in lower case after `--`
/// (`--db-pool-size`). Names it had before keep working as aliases; a deprecated one logs a warning.
public struct Setting: Sendable, Hashable, CustomStringConvertible {
    /// An environment variable or flag (`--pool-size`) that sets the same value.
    public struct Alias: Sendable, Hashable {
        public let name: String
        /// Whether using it logs a warning; a conventional name (`DATABASE_URL`) does not.
        public let isDeprecated: Bool

        public var isFlag: Bool { name.hasPrefix("--") }
    }

    /// How a value is written: a switch is `on` or `off` (its flag `--name` or `--no-name`).
    public enum Kind: Sendable, Hashable {
        case value
        case onOff
    }

    public static let environmentPrefix = "TRIP_HISTORY_"

    public let environmentName: String
    public let kind: Kind
    public let aliases: [Alias]
    /// A secret is never printed or logged, and may also be read from a file (`<NAME>_FILE`, `--<name>-file`).
    public let isSecret: Bool
    /// What the setting does, in a sentence: its flag's help.
    public let help: String
    /// What applies when it is not set, as text (`8`, `none`, `$DATABASE_URL`).
    public let fallback: String

    init(
        _ environmentName: String, kind: Kind = .value, aliases: [Alias] = [], isSecret: Bool = false, help: String,
        default fallback: String
    ) {
        precondition(environmentName.hasPrefix(Self.environmentPrefix), "\(environmentName) is not a service setting")
        self.environmentName = environmentName
        self.kind = kind
        self.aliases = aliases
        self.isSecret = isSecret
        self.help = help
        self.fallback = fallback
    }

    /// `Address to listen on. Default: $TRIP_HISTORY_HOST, else 127.0.0.1.`: the help, then where the value comes
    /// from when the flag is not given (a switch's variable is `on` or `off`).
    public var helpWithDefault: String { help(help, else: fallback) }

    /// `abstract`, then `Default: $TRIP_HISTORY_X, else FALLBACK.`, for a command that reads the setting its own way.
    public func help(_ abstract: String, else fallback: String) -> String {
        let variable = kind == .onOff ? "$\(environmentName) (on or off)" : "$\(environmentName)"
        return "\(abstract) Default: \(variable), else \(fallback)."
    }

    /// The setting's words after the prefix, lower case: `db_pool_size`.
    private var words: [Substring] {
        environmentName.dropFirst(Self.environmentPrefix.count).lowercased().split(separator: "_").map { $0 }
    }

    /// `db-pool-size`: the flag without its dashes.
    public var flagName: String { words.joined(separator: "-") }

    /// `--db-pool-size`.
    public var flag: String { "--" + flagName }

    /// The variable naming a file to read a secret from.
    public var fileEnvironmentName: String { environmentName + "_FILE" }

    /// The flag naming a file to read a secret from, without its dashes.
    public var fileFlagName: String { flagName + "-file" }

    /// The key swift-configuration reads, which its environment provider spells as `environmentName`.
    var key: ConfigKey { ConfigKey(environmentName.lowercased().split(separator: "_").map(String.init)) }

    /// `TRIP_HISTORY_DB_POOL_SIZE (--db-pool-size)`, as errors name a setting.
    public var description: String { "\(environmentName) (\(flag))" }

    static func deprecated(_ name: String) -> Alias { Alias(name: name, isDeprecated: true) }
    static func conventional(_ name: String) -> Alias { Alias(name: name, isDeprecated: false) }
}
