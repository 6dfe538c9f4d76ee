/// Finds payment card numbers in free text, so that none is ever stored: 13 to 19 digits that pass the Luhn
/// check, contiguous or grouped the way cards print them, separated by single spaces or dashes: a first group
/// of four digits and no group shorter than three (4-4-4-4, 4-6-5). Other groupings (phone numbers, order
/// references like 536528257-22544-4) are not taken for cards; one run in ten of any digits passes Luhn.
public enum CardNumber {
    /// Whether `text` contains a card number anywhere.
    public static func appears(in text: String) -> Bool {
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            guard isDigit(bytes[start]) else {
                start += 1
                continue
            }
            // A run of digits with single separators between them, starting here.
            var digits: [UInt8] = []
            var groups: [Int] = [0]
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if isDigit(byte) {
                    digits.append(byte - UInt8(ascii: "0"))
                    groups[groups.count - 1] += 1
                    index += 1
                } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-"), index + 1 < bytes.count,
                    isDigit(bytes[index + 1]), !digits.isEmpty
                {
                    groups.append(0)
                    index += 1
                } else {
                    break
                }
            }
            if isCardNumber(digits) && isCardGrouping(groups) { return true }
            start = max(index, start + 1)
        }
        return false
    }

    /// Whether a whole run of digits is a card number: 13 to 19 digits passing the Luhn check. A longer run
    /// (a reference number, a phone number with its prefix) is not one.
    static func isCardNumber(_ digits: [UInt8]) -> Bool {
        (13...19).contains(digits.count) && passesLuhn(digits[...])
    }

    /// Whether digit groups are contiguous, or grouped as cards print them: four digits first, none under three.
    static func isCardGrouping(_ groups: [Int]) -> Bool {
        groups.count == 1 || (groups[0] == 4 && groups.allSatisfy { $0 >= 3 })
    }

    /// The Luhn (mod 10) check over the digits, the last being the check digit.
    static func passesLuhn(_ digits: ArraySlice<UInt8>) -> Bool {
        var sum = 0
        for (position, digit) in digits.reversed().enumerated() {
            var value = Int(digit)
            if position % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
