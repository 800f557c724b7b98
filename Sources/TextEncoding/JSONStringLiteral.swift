/// A string as a JSON string literal: `"`, `\` and control characters escaped (`\n`, `\r`, `\t`,
/// else `\u00XX`), everything else kept as UTF-8. For JSON written by hand a piece at a time — the
/// OpenAPI document's schemas and patterns, the JSON log lines — where an encoder is not at hand.
public enum JSONStringLiteral {
    public static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u00" + Hex.encode([UInt8(scalar.value)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
