import ArgumentParser
import TripHistoryApp

/// Every setting of `serve` as a flag, read through the settings catalogue (`Setting.all`) rather than declared
/// one by one, so a new setting is a flag as soon as the catalogue has it: `--name value` or `--name=value`, a
/// switch's `--name` or `--no-name`, a secret's `--name-file path`, and every flag alias. The database and secret
/// flags belong to `DatabaseFlags` and `SecretFlags`, which the other commands share. Values stay text, read by
/// `SettingsReader` like the environment's.
struct ServeFlags: ParsableArguments {
    /// The settings read here: every one but those of the shared flag groups.
    static let settings = Setting.all.filter { ![Setting.databaseURL, .migrations, .secret].contains($0) }

    /// The arguments no other flag of `serve` took, in order; `given` reads them.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var arguments: [String] = []

    func validate() throws { _ = try given }

    /// The settings the arguments set.
    var given: GivenFlags {
        get throws { try Self.given(by: arguments) }
    }

    /// What each flag name sets: a setting's value, a switch turned on or off, or a file holding a secret.
    private enum Target {
        case value(Setting)
        case on(Setting, Bool)
        case file(Setting)
    }

    private static let targets: [String: Target] = {
        var targets: [String: Target] = [:]
        for setting in settings {
            let names = [setting.flag] + setting.aliases.filter(\.isFlag).map(\.name)
            for name in names {
                if setting.kind == .onOff {
                    targets[name] = .on(setting, true)
                    targets["--no-" + name.dropFirst(2)] = .on(setting, false)
                } else {
                    targets[name] = .value(setting)
                }
            }
            if setting.isSecret { targets["--" + setting.fileFlagName] = .file(setting) }
        }
        return targets
    }()

    /// The settings `arguments` set; an unknown flag, a flag without its value or a stray word is a usage error
    /// naming it. A value is the next argument whatever it looks like, so a value may start with `-`.
    static func given(by arguments: [String]) throws -> GivenFlags {
        var given = GivenFlags()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            let (name, inlineValue) = split(argument)
            guard let target = targets[name] else {
                throw ValidationError(
                    name.hasPrefix("-")
                        ? "Unknown option '\(name)' (trip-history serve --help lists them)."
                        : "Unexpected argument '\(argument)'.")
            }
            if case .on(let setting, let on) = target {
                guard inlineValue == nil else { throw ValidationError("'\(name)' takes no value.") }
                given.add(setting, on: on)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.endIndex else { throw ValidationError("Missing value for '\(name)'.") }
                value = arguments[index]
                index += 1
            }
            switch target {
            case .value(let setting): given.add(setting, value)
            case .file(let setting): given.add(setting, file: value)
            case .on: break
            }
        }
        return given
    }

    /// `--name=value` as the name and the value; any other argument as itself and no value.
    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The flags for `serve --help`, one per setting: its names, then its help and default.
    static var reference: String {
        settings.map { setting in
            let value = setting.kind == .onOff ? "" : " <value>"
            var names = [setting.flag + value] + setting.aliases.filter(\.isFlag).map { $0.name + value }
            if setting.kind == .onOff { names.append("--no-" + setting.flagName) }
            var entry = "  " + names.joined(separator: ", ") + "\n" + indented(setting.helpWithDefault)
            if setting.isSecret {
                entry +=
                    "\n  --\(setting.fileFlagName) <path>\n" + indented("A file holding the value of \(setting.flag).")
            }
            return entry
        }.joined(separator: "\n")
    }

    /// `text` in lines of at most 80 columns indented by 8, so that the help keeps its indentation (argument-parser
    /// wraps longer lines of a discussion back to the margin).
    private static func indented(_ text: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && 8 + line.count + 1 + word.count > 80 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.map { String(repeating: " ", count: 8) + $0 }.joined(separator: "\n")
    }
}
