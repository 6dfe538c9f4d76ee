import Configuration
import Foundation

/// A setting that cannot be used, named by its variable and flag.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// The settings of one run, read through swift-configuration from two providers: the flags given (which win),
/// then the environment. Aliases are resolved and secrets' files read here, so every reader below sees each
/// setting under its one name; an empty value counts as unset.
public struct SettingsReader: Sendable {
    private let reader: ConfigReader
    /// One line for each deprecated name in use, for the caller to log once at start.
    public let deprecationWarnings: [String]

    /// - Parameters:
    ///   - flags: the values given by flags (a switch's as `on` or `off`).
    ///   - secretFiles: the files given by a secret's `--<name>-file` flag.
    ///   - arguments: the command line as typed, where a deprecated flag alias is looked for.
    public init(
        flags: [Setting: String] = [:], secretFiles: [Setting: String] = [:], arguments: [String] = [],
        environment: [String: String]
    ) throws {
        var warnings: [String] = []
        var fromFlags: [String: String] = [:]
        for (setting, value) in flags { fromFlags[setting.environmentName] = value }
        for (setting, path) in secretFiles {
            guard fromFlags[setting.environmentName] == nil else {
                throw ConfigurationError("Pass \(setting.flag) or --\(setting.fileFlagName), not both.")
            }
            fromFlags[setting.environmentName] = try Self.readSecretFile(path, named: "--\(setting.fileFlagName)")
        }
        var fromEnvironment: [String: String] = [:]
        for setting in Setting.all {
            var value = environment[setting.environmentName].flatMap { $0.isEmpty ? nil : $0 }
            for alias in setting.aliases {
                if alias.isFlag {
                    let typed = arguments.contains { $0 == alias.name || $0.hasPrefix(alias.name + "=") }
                    if typed && alias.isDeprecated {
                        warnings.append("\(alias.name) is deprecated: use \(setting.flag).")
                    }
                } else if value == nil, let aliased = environment[alias.name], !aliased.isEmpty {
                    // An alias beside the setting's own name is ignored quietly, so a deployment can set both
                    // while it runs old and new builds.
                    value = aliased
                    if alias.isDeprecated {
                        warnings.append("\(alias.name) is deprecated: use \(setting.environmentName).")
                    }
                }
            }
            if setting.isSecret, let path = environment[setting.fileEnvironmentName], !path.isEmpty {
                guard value == nil else {
                    throw ConfigurationError(
                        "Set \(setting.environmentName) or \(setting.fileEnvironmentName), not both.")
                }
                value = try Self.readSecretFile(path, named: setting.fileEnvironmentName)
            }
            fromEnvironment[setting.environmentName] = value
        }
        let secrets = SecretsSpecifier<String, String>.specific(
            Set(Setting.all.filter(\.isSecret).map(\.environmentName)))
        reader = ConfigReader(providers: [
            EnvironmentVariablesProvider(environmentVariables: fromFlags, secretsSpecifier: secrets),
            EnvironmentVariablesProvider(environmentVariables: fromEnvironment, secretsSpecifier: secrets),
        ])
        deprecationWarnings = warnings
    }

    /// The setting's text, or nil when it is unset or empty.
    public func string(_ setting: Setting) -> String? {
        guard let text = reader.string(forKey: setting.key, isSecret: setting.isSecret), !text.isEmpty else {
            return nil
        }
        return text
    }

    /// The setting as an integer within `range`, or nil when unset; anything else is refused by name.
    public func integer(_ setting: Setting, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = string(setting) else { return nil }
        guard let value = reader.int(forKey: setting.key), range.contains(value) else {
            throw ConfigurationError(
                "\(setting) must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'.")
        }
        return value
    }

    /// A switch: `on` or `off` (or swift-configuration's booleans: `true`, `yes`, `1` and their opposites); nil
    /// when unset.
    public func isOn(_ setting: Setting) throws -> Bool? {
        guard let text = string(setting) else { return nil }
        switch text.lowercased() {
        case "on": return true
        case "off": return false
        default:
            guard let value = reader.bool(forKey: setting.key) else {
                throw ConfigurationError("\(setting) must be on or off, not '\(text)'.")
            }
            return value
        }
    }

    /// One of `Value`'s cases by its raw value, in any case; nil when unset.
    public func choice<Value: RawRepresentable<String> & CaseIterable>(
        _ setting: Setting, as type: Value.Type = Value.self
    ) throws -> Value? {
        guard let text = string(setting) else { return nil }
        guard let value = Value(rawValue: text.lowercased()) else {
            let cases = Value.allCases.map(\.rawValue).joined(separator: " or ")
            throw ConfigurationError("\(setting) must be \(cases), not '\(text)'.")
        }
        return value
    }

    /// The file's text without one trailing line break, as container platforms mount secrets.
    private static func readSecretFile(_ path: String, named name: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw ConfigurationError("Cannot read \(name) at \(path).") }
        if text.hasSuffix("\r\n") { return String(text.dropLast(2)) }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
