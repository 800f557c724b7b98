import Vocabulary

/// Pretty-prints JSON keeping the key order of the file (Foundation's serializer would sort or
/// shuffle it) and records, for each output line, the JSON pointer of the value that starts there,
/// so findings can be marked on the line a person reads.
public enum PrettyJSON {
    public typealias Line = FileText.Line

    /// The file as pages show it: pretty lines, or — when the bytes are not JSON — their text lines
    /// as served (split at line feeds, empty lines kept), so a page never shows less than the file.
    public static func text(_ bytes: [UInt8]) -> FileText {
        if let pretty = lines(bytes) { return FileText(pretty: true, lines: pretty) }
        // Split on the byte, not Swift's Character: "\r\n" is one Character and would never split.
        return FileText(pretty: false, lines: bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { FileText.Line(text: String(decoding: $0, as: UTF8.self), pointer: "") })
    }

    /// nil when the bytes are not JSON.
    public static func lines(_ bytes: [UInt8]) -> [Line]? {
        var p = Printer(bytes: bytes)
        p.skipSpace()
        guard p.value(pointer: "", indent: 0, prefix: "") else { return nil }
        p.skipSpace()
        guard p.i == bytes.count else { return nil }
        p.flush()
        return p.lines
    }

    struct Printer {
        let bytes: [UInt8]
        var i = 0
        var lines: [Line] = []
        var current = ""
        var currentPointer = ""
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func newLine(indent: Int, pointer: String) {
            flush()
            current = String(repeating: "  ", count: indent)
            currentPointer = pointer
        }

        mutating func flush() {
            if !current.isEmpty { lines.append(Line(text: current, pointer: currentPointer)) }
            current = ""
        }

        /// Emits one value; `prefix` is the `"key": ` already decided by the caller.
        mutating func value(pointer: String, indent: Int, prefix: String) -> Bool {
            depth += 1
            defer { depth -= 1 }
            guard depth < 200, i < bytes.count else { return false }
            newLine(indent: indent, pointer: pointer)
            current += prefix
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; current += "{}"; return true }
                current += "{"
                while true {
                    skipSpace()
                    guard let key = string() else { return false }
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
                    i += 1
                    skipSpace()
                    let childPointer = pointer + "/" + escapePointer(key.decoded)
                    guard value(pointer: childPointer, indent: indent + 1, prefix: key.raw + ": ") else { return false }
                    skipSpace()
                    guard i < bytes.count else { return false }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; current += ","; continue }
                    guard bytes[i] == UInt8(ascii: "}") else { return false }
                    i += 1
                    newLine(indent: indent, pointer: pointer)
                    current += "}"
                    return true
                }
            case UInt8(ascii: "["):
                i += 1
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; current += "[]"; return true }
                current += "["
                var index = 0
                while true {
                    skipSpace()
                    guard value(pointer: pointer + "/\(index)", indent: indent + 1, prefix: "") else { return false }
                    index += 1
                    skipSpace()
                    guard i < bytes.count else { return false }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; current += ","; continue }
                    guard bytes[i] == UInt8(ascii: "]") else { return false }
                    i += 1
                    newLine(indent: indent, pointer: pointer)
                    current += "]"
                    return true
                }
            case UInt8(ascii: "\""):
                guard let s = string() else { return false }
                current += s.raw
                return true
            default:
                let start = i
                while i < bytes.count, !",]} \n\r\t".utf8.contains(bytes[i]) { i += 1 }
                guard i > start else { return false }
                let token = String(decoding: bytes[start..<i], as: UTF8.self)
                guard token == "true" || token == "false" || token == "null" || Double(token) != nil else { return false }
                current += token
                return true
            }
        }

        /// A string token: its source text (quotes and escapes kept) and its decoded value for the pointer.
        mutating func string() -> (raw: String, decoded: String)? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            let start = i
            i += 1
            var decoded: [UInt8] = []
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                if bytes[i] == UInt8(ascii: "\\") {
                    guard i + 1 < bytes.count else { return nil }
                    let e = bytes[i + 1]
                    switch e {
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        // Pointers only need to be right for keys people write; \u escapes in keys are kept literally.
                        decoded.append(contentsOf: bytes[i..<min(i + 6, bytes.count)])
                        i += 4
                    default: decoded.append(e)
                    }
                    i += 2
                } else {
                    decoded.append(bytes[i])
                    i += 1
                }
            }
            guard i < bytes.count else { return nil }
            i += 1
            return (String(decoding: bytes[start..<i], as: UTF8.self), String(decoding: decoded, as: UTF8.self))
        }

        func escapePointer(_ key: String) -> String {
            key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }
    }
}

import Foundation
