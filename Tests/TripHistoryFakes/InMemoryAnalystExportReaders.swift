import Foundation

/// Splits the raw bytes of a JSON array's top-level elements, so tests can compare serializations byte for byte.
public func rawArrayElements(_ json: String, after marker: String) -> [String] {
    guard let start = json.range(of: marker)?.upperBound else { return [] }
    var elements: [String] = []
    var depth = 0
    var inString = false
    var escaped = false
    var current = ""
    for character in json[start...] {
        if depth == 0, !inString {
            if character == "]" { break }
            if character == "," { continue }
        }
        current.append(character)
        if inString {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                inString = false
            }
            continue
        }
        switch character {
        case "\"": inString = true
        case "{", "[": depth += 1
        case "}", "]":
            depth -= 1
            if depth == 0 {
                elements.append(current)
                current = ""
            }
        default: break
        }
    }
    return elements
}

/// An RFC 4180 reader, written independently of the service's writer.
public func parseCSV(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text.unicodeScalars)[...]
    while let scalar = characters.popFirst() {
        if quoted {
            if scalar == "\"" {
                if characters.first == "\"" {
                    field.unicodeScalars.append("\"")
                    characters.removeFirst()
                } else {
                    quoted = false
                }
            } else {
                field.unicodeScalars.append(scalar)
            }
        } else if scalar == "\"" {
            quoted = true
        } else if scalar == "," {
            record.append(field)
            field = ""
        } else if scalar == "\r", characters.first == "\n" {
            characters.removeFirst()
            record.append(field)
            records.append(record)
            record = []
            field = ""
        } else {
            field.unicodeScalars.append(scalar)
        }
    }
    return records
}
