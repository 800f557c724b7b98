import Foundation

/// The JSON form of the associated-domains array, `["applinks:example.com", …]`, read by
/// Foundation's `JSONSerialization`; this adds only the lines a refusal names.
enum JSONArrayLines {
    static func read(_ data: Data, lines: inout EntitlementsReader.Lines) throws(ManifestRefusal) -> Any {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            // Foundation says "… around character 8." (an offset into the bytes); turn it into a line.
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            let offset = detail.flatMap { text in
                text.range(of: "character ").flatMap { Int(text[$0.upperBound...].prefix { $0.isNumber }) }
            }
            throw ManifestRefusal(line: offset.map { line(at: $0, in: data) },
                "The file is not valid JSON\(detail.map { ": \($0)" } ?? ""). Expected an array of strings such as [\"applinks:example.com\"].")
        }
        lines.entries = elementLines(data)
        return value
    }

    static func line(at offset: Int, in data: Data) -> Int {
        data.prefix(max(0, offset)).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    /// The line each element of the top-level array starts on. The input already parsed, so only
    /// strings (with their escapes) and nesting need tracking.
    static func elementLines(_ data: Data) -> [Int] {
        var result: [Int] = []
        var line = 1, depth = 0
        var inString = false, escaped = false, expectValue = false
        for byte in data {
            if byte == 0x0A { line += 1 }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            case UInt8(ascii: ","):
                if depth == 1 { expectValue = true }
                continue
            default:
                break
            }
            if depth == 1 && expectValue && byte != UInt8(ascii: "]") {
                result.append(line)
                expectValue = false
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { expectValue = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return result
    }
}
