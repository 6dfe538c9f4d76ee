import Foundation

/// How one locale writes amounts of one currency, with exactly the currency's ISO minor-unit digits.
///
/// Formatting through ICU is costly per amount even with the style built once. For every locale
/// and currency the trip screens use, ICU writes a non-negative amount as literal text, the integer
/// digits in groups of three, a decimal separator, the fraction digits and literal text ("1.234,56 €",
/// "US$1,234.56"). So the pieces are read from ICU's own output for probe amounts and the hot path writes
/// the digits itself. The pieces are kept only when they reproduce ICU's output for a set of amounts
/// chosen to cover every grouping length; otherwise, and for negative or huge amounts, ICU formats.
///
/// A class, so that looking one up copies a single reference rather than the style and the pieces.
final class FareFormat: Sendable {
    /// The currency's ISO minor-unit digits.
    let digits: Int
    private let style: Decimal.FormatStyle.Currency
    private let pieces: Pieces?

    /// Amounts up to this many minor units are written from the pieces; larger ones (never real fares)
    /// go to ICU.
    static let largestWrittenAmount: Int64 = 999_999_999_999

    init(currency code: String, locale: Locale) {
        let digits = CurrencyMinorUnits.digits(for: code)
        self.digits = digits
        let style = Decimal.FormatStyle.Currency(code: code, locale: locale).precision(.fractionLength(digits))
        self.style = style
        pieces = Pieces(digits: digits, formattedByICU: { Self.formatByICU($0, digits: digits, style: style) })
    }

    /// The amount of `amountMinor` minor units, as ICU writes it for this locale and currency.
    func format(_ amountMinor: Int64) -> String {
        if let pieces, amountMinor >= 0, amountMinor <= Self.largestWrittenAmount {
            return pieces.write(amountMinor)
        }
        return Self.formatByICU(amountMinor, digits: digits, style: style)
    }

    /// Whether amounts are written from pieces read off ICU's output rather than by ICU; for tests.
    var writesDigitsItself: Bool { pieces != nil }

    private static func formatByICU(
        _ amountMinor: Int64, digits: Int, style: Decimal.FormatStyle.Currency
    )
        -> String
    {
        Decimal(sign: .plus, exponent: -digits, significand: Decimal(amountMinor)).formatted(style)
    }

    /// The literal parts of ICU's output around and between the digits, as UTF-8.
    private struct Pieces: Sendable {
        let digits: Int
        let prefix: [UInt8]
        let groupSeparator: [UInt8]
        let decimalSeparator: [UInt8]
        let suffix: [UInt8]
        /// Whether a four-digit integer part is grouped ("1.234") or not ("1234", CLDR's minimum grouping
        /// digits of 2, as in es-ES).
        private(set) var groupsFourDigits: Bool

        /// Integer parts whose output must match ICU's for the pieces to be used: each grouping length (no
        /// group, the four-digit case, one to four groups), each with a fraction made of its own last
        /// digits. Few, since every locale formats them for every precomputed currency at start-up.
        private static let probeIntegers: [Int64] = [0, 5, 999, 1000, 12345, 123_456, 1_234_567_890, 999_999_999_999]

        init?(digits: Int, formattedByICU: (Int64) -> String) {
            guard (0...3).contains(digits) else { return nil }
            let scale = Self.powersOfTen[digits]
            let fractionText = String("789".prefix(digits))
            let probe = Array(formattedByICU(1_234_567 * scale + (Int64(fractionText) ?? 0)).utf8)
            let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            guard let first = probe.firstIndex(where: isDigit), let last = probe.lastIndex(where: isDigit)
            else { return nil }
            // Split into digit runs and the separators between them: "1", group, "234", group, "567",
            // then the decimal separator and the fraction.
            var runs: [String] = [""]
            var separators: [[UInt8]] = []
            var inDigits = true
            for byte in probe[first...last] {
                if isDigit(byte) != inDigits {
                    inDigits.toggle()
                    if inDigits { runs.append("") } else { separators.append([]) }
                }
                if inDigits {
                    runs[runs.count - 1].unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    separators[separators.count - 1].append(byte)
                }
            }
            guard runs == ["1", "234", "567"] + (digits > 0 ? [fractionText] : []),
                separators[0] == separators[1]
            else { return nil }
            self.digits = digits
            prefix = Array(probe[..<first])
            suffix = Array(probe[(last + 1)...])
            groupSeparator = separators[0]
            decimalSeparator = digits > 0 ? separators[2] : []
            groupsFourDigits = true
            let fourDigits = formattedByICU(1234 * scale)
            if write(1234 * scale) != fourDigits {
                groupsFourDigits = false
                guard write(1234 * scale) == fourDigits else { return nil }
            }
            for integer in Self.probeIntegers {
                let amount = integer * scale + integer % scale
                guard write(amount) == formattedByICU(amount) else { return nil }
            }
        }

        func write(_ amountMinor: Int64) -> String {
            let scale = Self.powersOfTen[digits]
            let integer = amountMinor / scale
            let fraction = amountMinor % scale
            var integerDigits = 1
            while integerDigits < Self.powersOfTen.count, integer >= Self.powersOfTen[integerDigits] {
                integerDigits += 1
            }
            let grouped = integerDigits > 4 || (integerDigits == 4 && groupsFourDigits)
            let groups = grouped ? (integerDigits - 1) / 3 : 0
            let capacity =
                prefix.count + integerDigits + groups * groupSeparator.count
                + (digits > 0 ? decimalSeparator.count + digits : 0) + suffix.count
            return String(unsafeUninitializedCapacity: capacity) { buffer in
                var position = 0
                func put(_ bytes: [UInt8]) {
                    for byte in bytes {
                        buffer[position] = byte
                        position += 1
                    }
                }
                func putDigits(_ value: Int64, count: Int, groupEveryThree: Bool) {
                    for place in stride(from: count - 1, through: 0, by: -1) {
                        buffer[position] = UInt8(ascii: "0") + UInt8(value / Self.powersOfTen[place] % 10)
                        position += 1
                        if groupEveryThree, place > 0, place % 3 == 0 { put(groupSeparator) }
                    }
                }
                put(prefix)
                putDigits(integer, count: integerDigits, groupEveryThree: grouped)
                if digits > 0 {
                    put(decimalSeparator)
                    putDigits(fraction, count: digits, groupEveryThree: false)
                }
                put(suffix)
                return position
            }
        }

        private static let powersOfTen: [Int64] = (0...18).map { power in
            (0..<power).reduce(Int64(1)) { product, _ in product * 10 }
        }
    }
}
