import Foundation
import Testing
import TripHistoryApp

/// The one reading of settings: names, precedence, aliases, secrets' files and refusals, without a process.
@Suite struct SettingsReaderTests {
    @Test func everySettingFollowsTheOneNamingScheme() {
        var names = Set<String>()
        for setting in Setting.all {
            #expect(setting.environmentName.hasPrefix("TRIP_HISTORY_"))
            let words = setting.environmentName.dropFirst("TRIP_HISTORY_".count).lowercased()
            #expect(setting.flag == "--" + words.replacingOccurrences(of: "_", with: "-"))
            for name in [setting.environmentName, setting.flag] + setting.aliases.map(\.name) {
                #expect(names.insert(name).inserted, "\(name) names two settings")
            }
        }
    }

    /// A setting declared but left out of `Setting.all` would never be read from the environment.
    @Test func theCatalogueListsEverySettingItDeclares() throws {
        let catalogue = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Sources/TripHistoryApp/Settings/Setting+Catalogue.swift")
        let source = try String(contentsOf: catalogue, encoding: .utf8)
        let declared = source.components(separatedBy: "public static let ").dropFirst()
            .filter { $0.contains("= Setting(") && !$0.hasPrefix("all") }.count
        #expect(declared == Setting.all.count)
        #expect(Set(Setting.all).count == Setting.all.count)
    }

    @Test func everySettingIsReadFromItsVariableAndItsFlagWinsOverIt() throws {
        for setting in Setting.all {
            let fromEnvironment = try SettingsReader(environment: [setting.environmentName: "from-environment"])
            #expect(fromEnvironment.string(setting) == "from-environment", "\(setting)")
            let fromFlag = try SettingsReader(
                flags: [setting: "from-flag"], environment: [setting.environmentName: "from-environment"])
            #expect(fromFlag.string(setting) == "from-flag", "\(setting)")
            #expect(try SettingsReader(environment: [:]).string(setting) == nil)
        }
    }

    @Test func anEmptyVariableCountsAsUnset() throws {
        let settings = try SettingsReader(environment: ["TRIP_HISTORY_DB_POOL_SIZE": "", "TRIP_HISTORY_CACHE": ""])
        #expect(try settings.integer(.poolSize, in: 1...256) == nil)
        #expect(try settings.isOn(.cache) == nil)
    }

    @Test func aConventionalAliasIsReadWithoutAWarningAndTheOwnNameWins() throws {
        let alias = try SettingsReader(environment: ["DATABASE_URL": "postgresql://alias/db"])
        #expect(alias.string(.databaseURL) == "postgresql://alias/db")
        #expect(alias.deprecationWarnings.isEmpty)
        let both = try SettingsReader(environment: [
            "DATABASE_URL": "postgresql://alias/db", "TRIP_HISTORY_DATABASE_URL": "postgresql://own/db",
        ])
        #expect(both.string(.databaseURL) == "postgresql://own/db")
    }

    @Test func aDeprecatedVariableIsReadWithAWarning() throws {
        let settings = try SettingsReader(environment: ["LOG_LEVEL": "debug"])
        #expect(settings.string(.logLevel) == "debug")
        #expect(settings.deprecationWarnings == ["LOG_LEVEL is deprecated: use TRIP_HISTORY_LOG_LEVEL."])
    }

    @Test func aDeprecatedFlagAsTypedGivesAWarningInEitherSpelling() throws {
        for arguments in [["serve", "--pool-size", "3"], ["serve", "--pool-size=3"]] {
            let settings = try SettingsReader(flags: [.poolSize: "3"], arguments: arguments, environment: [:])
            #expect(settings.deprecationWarnings == ["--pool-size is deprecated: use --db-pool-size."])
        }
        let current = try SettingsReader(
            flags: [.poolSize: "3"], arguments: ["serve", "--db-pool-size", "3"], environment: [:])
        #expect(current.deprecationWarnings.isEmpty)
    }

    @Test func aSecretIsReadFromItsFileWithoutOneTrailingLineBreak() throws {
        let file = try Self.temporaryFile("postgresql://app:from-file@db/trips\n\n")
        let settings = try SettingsReader(environment: ["TRIP_HISTORY_DATABASE_URL_FILE": file])
        #expect(settings.string(.databaseURL) == "postgresql://app:from-file@db/trips\n")
        let flagged = try SettingsReader(secretFiles: [.previousSecrets: file], environment: [:])
        #expect(flagged.string(.previousSecrets) == "postgresql://app:from-file@db/trips\n")
    }

    @Test func aSecretAndItsFileTogetherAreRefused() throws {
        let file = try Self.temporaryFile("x")
        #expect(throws: ConfigurationError("Set TRIP_HISTORY_SECRET or TRIP_HISTORY_SECRET_FILE, not both.")) {
            try SettingsReader(environment: ["TRIP_HISTORY_SECRET": "s", "TRIP_HISTORY_SECRET_FILE": file])
        }
        #expect(throws: ConfigurationError("Pass --secret or --secret-file, not both.")) {
            try SettingsReader(flags: [.secret: "s"], secretFiles: [.secret: file], environment: [:])
        }
        #expect(throws: ConfigurationError("Cannot read TRIP_HISTORY_SECRET_FILE at /nonexistent/secret.")) {
            try SettingsReader(environment: ["TRIP_HISTORY_SECRET_FILE": "/nonexistent/secret"])
        }
    }

    @Test func anIntegerOutsideItsRangeOrNotOneIsRefusedByBothNames() throws {
        for text in ["abc", "0", "257", "8.5"] {
            let settings = try SettingsReader(environment: ["TRIP_HISTORY_DB_POOL_SIZE": text])
            #expect(
                throws: ConfigurationError(
                    "TRIP_HISTORY_DB_POOL_SIZE (--db-pool-size) must be an integer from 1 to 256, not '\(text)'.")
            ) { try settings.integer(.poolSize, in: 1...256) }
        }
        #expect(
            try SettingsReader(environment: ["TRIP_HISTORY_DB_POOL_SIZE": "256"]).integer(.poolSize, in: 1...256) == 256
        )
    }

    @Test func aSwitchIsOnOrOffOrABoolean() throws {
        for (text, expected) in [("on", true), ("OFF", false), ("true", true), ("0", false), ("yes", true)] {
            #expect(try SettingsReader(environment: ["TRIP_HISTORY_CACHE": text]).isOn(.cache) == expected, "\(text)")
        }
        let settings = try SettingsReader(environment: ["TRIP_HISTORY_CACHE": "maybe"])
        #expect(throws: ConfigurationError("TRIP_HISTORY_CACHE (--cache) must be on or off, not 'maybe'.")) {
            try settings.isOn(.cache)
        }
    }

    @Test func aChoiceNamesItsCases() throws {
        #expect(
            try SettingsReader(environment: ["TRIP_HISTORY_LOG_FORMAT": "JSON"]).choice(.logFormat) == LogFormat.json)
        let settings = try SettingsReader(environment: ["TRIP_HISTORY_CACHE_COHERENCE": "eventual"])
        #expect(
            throws: ConfigurationError(
                "TRIP_HISTORY_CACHE_COHERENCE (--cache-coherence) must be local or strict, not 'eventual'.")
        ) { try settings.choice(.cacheCoherence, as: CacheCoherence.self) }
    }

    static func temporaryFile(_ contents: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
