import Testing

@testable import TripHistoryPresentation

@Suite struct LocaleNegotiatorTests {
    private let negotiator = LocaleNegotiator()

    @Test(
        arguments: [
            // Absent, empty and blank headers.
            (nil, SupportedLocale.enUS),
            ("", .enUS),
            ("   ", .enUS),
            // Exact and language-only matches, in any case.
            ("fr", .frFR),
            ("en", .enUS),
            ("de-AT", .deDE),
            ("en-AU", .enGB),
            ("en-IE", .enGB),
            ("EN-gb", .enGB),
            ("ja_JP", .jaJP),
            ("es-419", .esES),
            ("en-Latn-GB", .enGB),
            ("en-Latn", .enUS),
            ("en-CA", .enUS),
            ("en-001", .enGB),
            ("fr-CA", .frFR),
            // Quality values, ties in header order, optional white space.
            ("de;q=0.5, ja;q=0.9", .jaJP),
            ("en-US;q=0.8, fr;q=0.8", .enUS),
            ("fr;q=0.8, en-US;q=0.8", .frFR),
            ("da, en-gb;q=0.8, en;q=0.7", .enGB),
            ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", .frFR),
            ("  ja  ;  q=0.9 , de;q=0.1", .jaJP),
            ("fr;Q=0.8, de;q=0.9", .deDE),
            ("de;q=1.000", .deDE),
            ("es;q=0.001, zh", .esES),
            // Wildcards and refusals.
            ("*", .enUS),
            ("zh-CN, *;q=0.1", .enUS),
            ("en;q=0, *", .frFR),
            ("en-US;q=0, *", .enGB),
            ("de;q=0", .enUS),
            ("en-GB;q=0, en-AU", .enUS),
            // Malformed ranges are skipped, not fatal.
            ("fr;q=abc, de", .deDE),
            ("fr;q=2", .enUS),
            ("fr;q=1.5", .enUS),
            ("fr;q=0.5000", .enUS),
            ("fr;q=", .enUS),
            ("fr;q", .enUS),
            ("fr;level=1", .frFR),
            (";;;,,,", .enUS),
            ("français, de", .deDE),
            ("abcdefghi-fr", .enUS),
            ("en--US", .enUS),
            ("fr-toolongsub", .enUS),
            ("\u{0000}fr", .enUS),
            ("*-fr", .enUS),
            ("ja\u{7F}, de", .deDE),
            ("🇫🇷, es", .esES),
        ] as [(String?, SupportedLocale)])
    func negotiates(header: String?, expected: SupportedLocale) {
        #expect(negotiator.bestMatch(acceptLanguage: header) == expected)
    }

    @Test func onlyTheFirstRangesAreConsidered() {
        let filler = Array(repeating: "zh", count: LocaleNegotiator.maximumRanges - 1)
        #expect(negotiator.bestMatch(acceptLanguage: (filler + ["fr"]).joined(separator: ",")) == .frFR)
        #expect(negotiator.bestMatch(acceptLanguage: (filler + ["zh", "fr"]).joined(separator: ",")) == .enUS)
    }

    @Test func onlyTheFirstBytesAreConsidered() {
        let padding = String(repeating: " ", count: LocaleNegotiator.maximumHeaderBytes - 4)
        #expect(negotiator.bestMatch(acceptLanguage: padding + ", fr") == .frFR)
        #expect(negotiator.bestMatch(acceptLanguage: padding + ",  fr") == .enUS)
        #expect(negotiator.bestMatch(acceptLanguage: padding + ", frFR") == .enUS)
    }

    /// A 3.6 MB header is read only up to the limit: the `fr` at its end is never seen.
    @Test func hugeHeadersAreReadOnlyUpToTheLimit() {
        let huge = String(repeating: "zh-Hant-TW;q=0.9,", count: 200_000) + "fr"
        #expect(negotiator.bestMatch(acceptLanguage: huge) == .enUS)
    }

    @Test func arbitraryInputNeverSelectsAnUnrequestedLanguage() {
        var generator = SplitMix(seed: 0x5EED)
        let alphabet = Array("enfrdejaszhESFRJA-_*;,=q.0123456789 \t\u{00E9}\u{0000}🇫🇷")
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 40)
            let header = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let result = negotiator.bestMatch(acceptLanguage: header)
            let lowered = header.lowercased()
            let mentionsLanguage = ["en", "fr", "de", "ja", "es", "*"].contains { lowered.contains($0) }
            #expect(mentionsLanguage || result == .enUS, "header \(header.debugDescription) gave \(result)")
        }
    }
}
