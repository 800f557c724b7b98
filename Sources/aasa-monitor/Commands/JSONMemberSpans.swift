/// Finds where each top-level member's value lies in one JSON object's bytes, without decoding it.
///
/// The batch protocol embeds a whole association file in each line. Passing its bytes to the parser
/// as they are keeps what a re-encoding would lose: key order (which orders apps in the dictionary
/// form of `details`), duplicate keys, and exact numbers in `id`. Only called on lines
/// `JSONSerialization` has already accepted, so it does not validate; it returns nil if lost.
enum JSONMemberSpans {
    static func spans(_ bytes: [UInt8]) -> [String: Range<Int>]? {
        var index = skipSpace(bytes, 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var spans: [String: Range<Int>] = [:]
        while true {
            index = skipSpace(bytes, index)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "}") { return spans }
            guard bytes[index] == UInt8(ascii: "\""), let keyEnd = stringEnd(bytes, index) else { return nil }
            // Keys we look up are plain ASCII; an escaped key simply never equals one of them.
            let key = String(decoding: bytes[(index + 1)..<(keyEnd - 1)], as: UTF8.self)
            index = skipSpace(bytes, keyEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index = skipSpace(bytes, index + 1)
            guard let valueEnd = valueEnd(bytes, index) else { return nil }
            spans[key] = index..<valueEnd
            index = skipSpace(bytes, valueEnd)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") { index += 1 }
        }
    }

    private static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }

    /// Index just past the closing quote of the string starting at `start`.
    private static func stringEnd(_ bytes: [UInt8], _ start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return nil
    }

    private static func valueEnd(_ bytes: [UInt8], _ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, index) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return nil
        default:
            var index = start
            while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D]
                .contains(bytes[index]) { index += 1 }
            return index
        }
    }
}
