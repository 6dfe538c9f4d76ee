import Foundation
import TripHistoryDomain

extension TripPresenter {
    /// The first non-blank comma-separated part of the drop-off address ("1 Market St" of
    /// "1 Market St, San Francisco, CA"), extended by the next parts while it has no letter (so "170, Avenida
    /// Insurgentes Sur" stays whole rather than becoming "170"), or the city when the address has none.
    ///
    /// Parts, blanks and letters are as `String` sees them: a comma is a separator only when it is a
    /// `Character` of its own, blanks are `CharacterSet.whitespacesAndNewlines`, and a letter is a
    /// `Character` whose `isLetter` is true. The UTF-8 bytes are read once, up to the end of the first part
    /// with a letter; ASCII parts are trimmed and searched byte by byte, and only a part with other
    /// characters goes through `String`.
    static func destination(of details: TripDetails) -> String {
        var address = details.dropoff.address
        return address.withUTF8 { destination(inUTF8: $0) } ?? details.city
    }

    /// The destination as `destination(of:)` defines it, or nil when `bytes` has no non-blank part.
    private static func destination(inUTF8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var parts: [String] = []
        var partStart = bytes.startIndex
        while partStart < bytes.endIndex {
            var partEnd = partStart
            var isASCII = true
            while partEnd < bytes.endIndex {
                let byte = bytes[partEnd]
                if byte == UInt8(ascii: ","), isSeparator(commaAt: partEnd, in: bytes) { break }
                if byte >= 0x80 { isASCII = false }
                partEnd += 1
            }
            let part: String
            let hasLetter: Bool
            var start = partStart
            var end = partEnd
            while start < end, isASCIIBlank(bytes[start]) { start += 1 }
            while end > start, isASCIIBlank(bytes[end - 1]) { end -= 1 }
            if isASCII {
                part = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                // Setting bit 5 lower-cases ASCII letters and sends no other byte into a...z.
                hasLetter = bytes[start..<end].contains {
                    ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z")
                }
            } else {
                // Once both ends are ASCII and not blank, no blank scalar is left to trim there; otherwise
                // the ends may hold a non-ASCII blank (or a mark after an ASCII blank): trim by scalars.
                if start < end, bytes[start] < 0x80, bytes[end - 1] < 0x80 {
                    part = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                } else {
                    let untrimmed = UnsafeBufferPointer(rebasing: bytes[partStart..<partEnd])
                    part = trimmed(String(decoding: untrimmed, as: UTF8.self))
                }
                hasLetter = part.contains(where: \.isLetter)
            }
            partStart = partEnd + 1
            guard !part.isEmpty else { continue }
            if hasLetter, parts.isEmpty { return part }
            parts.append(part)
            if hasLetter { break }
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Whether the comma at `index` is a `Character` of its own rather than part of a cluster: it is unless
    /// the scalar before it is a prepended mark or the one after it extends it (a combining accent), which
    /// only non-ASCII neighbours can do.
    private static func isSeparator(commaAt index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let isContinuation = { (byte: UInt8) in byte & 0xC0 == 0x80 }
        var start = index
        var end = index + 1
        if start > bytes.startIndex, bytes[start - 1] >= 0x80 {
            start -= 1
            while start > bytes.startIndex, isContinuation(bytes[start]) { start -= 1 }
        }
        if end < bytes.endIndex, bytes[end] >= 0x80 {
            end += 1
            while end < bytes.endIndex, isContinuation(bytes[end]) { end += 1 }
        }
        guard start < index || end > index + 1 else { return true }
        let neighbourhood = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return neighbourhood.count == neighbourhood.unicodeScalars.count
    }

    /// `text` without leading and trailing `CharacterSet.whitespacesAndNewlines`, like
    /// `trimmingCharacters(in:)` (which compares scalars too) without its detour through `NSString`.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let blanks = CharacterSet.whitespacesAndNewlines
        guard let first = scalars.firstIndex(where: { !blanks.contains($0) }),
            let last = scalars.lastIndex(where: { !blanks.contains($0) })
        else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return text }
        return String(scalars[first...last])
    }

    /// The ASCII members of `CharacterSet.whitespacesAndNewlines`: tab, the line breaks and space.
    private static func isASCIIBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (byte >= 0x09 && byte <= 0x0D)
    }
}
