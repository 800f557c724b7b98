import Vocabulary

/// A JSON reader over bytes that records where every value starts, reports each syntax error as
/// an `invalid-json` finding and keeps reading where that is safe (trailing and missing commas,
/// comments, bare words, control characters), so one mistake does not hide the rest of the file.
///
/// Guarantees: never traps on any input; recursion is bounded by `maxDepth` (deeper values are
/// skipped iteratively); memory is linear in the input; work is linear in the input.
package struct JSONReader {
    /// Real association files nest about 7 levels; 128 leaves room for anything legitimate while
    /// keeping the recursion far from the stack limit.
    package static let maxDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    private let source: SourceText
    private var index: Int
    private var line = 1
    private var lineStart: Int
    /// UTF-8 continuation bytes read so far, and how many of them came before `lineStart`.
    private var continuations = 0
    private var lineStartContinuations = 0
    private var path = JSONPath()
    private let kinds: JSONFindingKinds
    private(set) var findings: FindingCollector
    /// The first unrecoverable syntax error; the document is then unusable.
    private(set) var failed = false

    private struct Fatal: Error {}

    /// Reads `source.bytes[start...]` (start skips a BOM, which then does not count as a column).
    package static func read(_ source: SourceText, from start: Int = 0, kinds: JSONFindingKinds)
        -> (value: JSONValue?, findings: FindingCollector, failed: Bool) {
        source.bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer, source: source, start: start, kinds: kinds)
            let value = reader.readDocument()
            return (value, reader.findings, reader.failed)
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, source: SourceText, start: Int, kinds: JSONFindingKinds) {
        self.kinds = kinds
        self.findings = FindingCollector(truncation: kinds.truncated)
        self.bytes = bytes
        self.source = source
        self.index = start
        self.lineStart = start
    }

    private var position: TextPosition {
        TextPosition(offset: index, line: line, column: index - lineStart - (continuations - lineStartContinuations) + 1)
    }

    private mutating func newLine(startingAt offset: Int) {
        line += 1
        lineStart = offset
        lineStartContinuations = continuations
    }

    /// Keeps line and column right over a byte at `index` that is skipped, not read: a newline
    /// starts a line, a UTF-8 continuation byte adds no column.
    private mutating func passOver(_ byte: UInt8) {
        if byte == 0x0A { newLine(startingAt: index + 1) } else if byte & 0xC0 == 0x80 { continuations += 1 }
    }
    private var atEnd: Bool { index >= bytes.count }
    private var current: UInt8 { bytes[index] }

    private mutating func readDocument() -> JSONValue? {
        skipWhitespace()
        if atEnd {
            failed = true
            report(position, "The body is empty; " + kinds.expectedDocument + ".")
            return nil
        }
        do {
            let value = try readValue(depth: 0)
            skipWhitespace()
            if !atEnd {
                report(position, "There is more text after the end of the JSON value (\(describe(current))); a JSON file holds exactly one value.",
                       hint: "Delete everything after the closing } of the top-level object.")
            }
            return value
        } catch {
            failed = true
            return nil
        }
    }

    // MARK: Values

    private mutating func readValue(depth: Int) throws(Fatal) -> JSONValue {
        guard !atEnd else {
            throw fatal(position, "The file ends where a value was expected.")
        }
        let start = position
        switch current {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if depth >= Self.maxDepth { return try skipTooDeep() }
            return current == UInt8(ascii: "{") ? try readObject(depth: depth) : try readArray(depth: depth)
        case UInt8(ascii: "\""):
            return JSONValue(kind: .string(try readString()), position: start)
        case UInt8(ascii: "'"):
            report(start, "Strings must use double quotes (\"), not single quotes.", hint: "Replace ' with \".")
            return JSONValue(kind: .string(try readString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(kind: .number(readNumber()), position: start)
        default:
            if isWordByte(current) { return readWord() }
            throw fatal(start, "Unexpected \(describe(current)) where a value was expected.")
        }
    }

    private mutating func readObject(depth: Int) throws(Fatal) -> JSONValue {
        let start = position
        var members: [JSONMember] = []
        if open(closing: UInt8(ascii: "}")) { return JSONValue(kind: .object(members), position: start) }
        while true {
            skipWhitespace()
            guard !atEnd else { throw unclosed("object", start) }
            let keyPosition = position
            let key: String
            switch current {
            case UInt8(ascii: "\""):
                key = try readString()
            case UInt8(ascii: "'"):
                report(keyPosition, "Keys must use double quotes (\"), not single quotes.", hint: "Replace ' with \".")
                key = try readString()
            default:
                if isWordByte(current) {
                    key = readBareWordText()
                    report(keyPosition, "The key \(key) is not in quotes; JSON keys are strings.", hint: "Write \"\(key)\".")
                } else {
                    throw fatal(keyPosition, "Expected a key in double quotes, found \(describe(current)).")
                }
            }
            skipWhitespace()
            guard !atEnd else { throw unclosed("object", start) }
            guard current == UInt8(ascii: ":") else {
                throw fatal(position, "Expected ':' after the key \"\(key)\", found \(describe(current)).")
            }
            index += 1
            skipWhitespace()
            path.push(.key(key))
            let value = try readValue(depth: depth + 1)
            path.pop()
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard !atEnd else { throw unclosed("object", start) }
            switch current {
            case UInt8(ascii: ","):
                if skipComma(closing: UInt8(ascii: "}")) { return finishObject(members, start) }
            case UInt8(ascii: "}"):
                index += 1
                return finishObject(members, start)
            case UInt8(ascii: "\""):
                report(position, "A comma is missing between two members of an object.", hint: "Add a comma after the value of \"\(key)\".")
            default:
                throw fatal(position, "Expected ',' or '}' after the value of \"\(key)\", found \(describe(current)).")
            }
        }
    }

    /// Steps over a container's opening bracket; true when the container is empty (its closing
    /// bracket is then consumed too).
    private mutating func open(closing: UInt8) -> Bool {
        index += 1
        skipWhitespace()
        guard !atEnd && current == closing else { return false }
        index += 1
        return true
    }

    /// Steps over a comma between members or elements; true when the container closes right after it
    /// (a trailing comma, reported and forgiven, the closing bracket consumed).
    private mutating func skipComma(closing: UInt8) -> Bool {
        let comma = position
        index += 1
        skipWhitespace()
        guard !atEnd && current == closing else { return false }
        report(comma, "A comma before the closing \(Character(Unicode.Scalar(closing))) is not allowed in JSON.", hint: "Delete the trailing comma.")
        index += 1
        return true
    }

    private mutating func finishObject(_ members: [JSONMember], _ start: TextPosition) -> JSONValue {
        reportDuplicateKeys(members)
        return JSONValue(kind: .object(members), position: start)
    }

    /// Foundation keeps the last of duplicate keys [inferred]; a person usually meant one of them.
    private mutating func reportDuplicateKeys(_ members: [JSONMember]) {
        guard members.count > 1 else { return }
        if members.count <= 16 {
            var distinct = true
            outer: for i in 0..<members.count {
                for j in (i + 1)..<members.count where members[i].key == members[j].key {
                    distinct = false
                    break outer
                }
            }
            if distinct { return }
        }
        var seen = Set<String>()
        seen.reserveCapacity(members.count)
        for member in members where !seen.insert(member.key).inserted {
            path.push(.key(member.key))
            findings.add(kinds.duplicateKey.finding(at: source.location(path.pointer, member.keyPosition),
                "The key \"\(member.key)\" appears more than once in this object; only the last one counts.",
                hint: "Merge the two values under one key."))
            path.pop()
        }
    }

    private mutating func readArray(depth: Int) throws(Fatal) -> JSONValue {
        let start = position
        var elements: [JSONValue] = []
        if open(closing: UInt8(ascii: "]")) { return JSONValue(kind: .array(elements), position: start) }
        while true {
            skipWhitespace()
            path.push(.index(elements.count))
            let value = try readValue(depth: depth + 1)
            path.pop()
            elements.append(value)
            skipWhitespace()
            guard !atEnd else { throw unclosed("array", start) }
            switch current {
            case UInt8(ascii: ","):
                if skipComma(closing: UInt8(ascii: "]")) { return JSONValue(kind: .array(elements), position: start) }
            case UInt8(ascii: "]"):
                index += 1
                return JSONValue(kind: .array(elements), position: start)
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""):
                report(position, "A comma is missing between two elements of an array.", hint: "Add a comma between the elements.")
            default:
                throw fatal(position, "Expected ',' or ']' in the array that starts at line \(start.line), found \(describe(current)).")
            }
        }
    }

    // MARK: Strings

    /// Reads a string starting at its opening quote (" or ', the latter only for recovery).
    private mutating func readString() throws(Fatal) -> String {
        let start = position
        let quote = current
        index += 1
        let contentStart = index
        var sawNonASCII = false
        // Fast path: no escapes, no control characters — the string is a slice of the input.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                let text = makeString(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), nonASCII: sawNonASCII, start)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte >= 0x80 {
                sawNonASCII = true
                if byte & 0xC0 == 0x80 { continuations += 1 }
            }
            index += 1
        }
        guard index < bytes.count else { throw unterminatedString(start) }
        var buffer = Array(bytes[contentStart..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return buffer.withUnsafeBufferPointer { makeString($0, nonASCII: sawNonASCII, start) }
            }
            if byte == UInt8(ascii: "\\") {
                try readEscape(into: &buffer)
                continue
            }
            if byte < 0x20 {
                report(position, "A string contains a raw control character (\(describe(byte))); JSON needs it escaped.",
                       hint: byte == 0x0A ? "Write \\n, or close the string before the line ends." : "Escape it as \\u00XX.")
                if byte == 0x0A { newLine(startingAt: index + 1) }
            }
            if byte >= 0x80 {
                sawNonASCII = true
                if byte & 0xC0 == 0x80 { continuations += 1 }
            }
            buffer.append(byte)
            index += 1
        }
        throw unterminatedString(start)
    }

    private mutating func readEscape(into buffer: inout [UInt8]) throws(Fatal) {
        let escapePosition = position
        index += 1
        guard index < bytes.count else { throw unterminatedString(escapePosition) }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "'"):
            if letter == UInt8(ascii: "'") { report(escapePosition, "\\' is not a JSON escape.", hint: "Write ' without the backslash.") }
            buffer.append(letter)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            guard var scalar = readHex4() else {
                report(escapePosition, "\\u must be followed by four hexadecimal digits.")
                return
            }
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate is only meaningful followed by \u and a low surrogate.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let save = index
                    index += 2
                    if let low = readHex4(), (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = save
                        scalar = 0xFFFD
                        report(escapePosition, "A \\u escape is half of a surrogate pair without the other half.")
                    }
                } else {
                    scalar = 0xFFFD
                    report(escapePosition, "A \\u escape is half of a surrogate pair without the other half.")
                }
            } else if (0xDC00...0xDFFF).contains(scalar) {
                scalar = 0xFFFD
                report(escapePosition, "A \\u escape is half of a surrogate pair without the other half.")
            }
            let unicode = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            report(escapePosition, "\\\(describeRaw(letter)) is not a JSON escape.", hint: "Use \\\\ for a backslash.")
            buffer.append(letter)
        }
    }

    private mutating func readHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private mutating func makeString(_ raw: UnsafeBufferPointer<UInt8>, nonASCII: Bool, _ start: TextPosition) -> String {
        if !nonASCII { return String(decoding: raw, as: UTF8.self) }
        if let valid = String(validating: raw, as: UTF8.self) { return valid }
        findings.add(kinds.invalidUTF8.finding(at: source.location(path.pointer, start),
            "A string contains bytes that are not valid UTF-8; they are read as U+FFFD.",
            hint: "Save the file as UTF-8."))
        return String(decoding: raw, as: UTF8.self)
    }

    // MARK: Numbers and words

    private mutating func readNumber() -> String {
        let start = position
        let from = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                 UInt8(ascii: "e"), UInt8(ascii: "E"):
                index += 1
            default:
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<index]), as: UTF8.self)
                if !Self.isValidNumber(text.utf8) { report(start, "\(text) is not a valid JSON number.") }
                return text
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<index]), as: UTF8.self)
        if !Self.isValidNumber(text.utf8) { report(start, "\(text) is not a valid JSON number.") }
        return text
    }

    /// RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    package static func isValidNumber(_ text: String.UTF8View) -> Bool {
        var it = Array(text)[...]
        func digits(_ s: inout ArraySlice<UInt8>) -> Int {
            var n = 0
            while let c = s.first, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { s.removeFirst(); n += 1 }
            return n
        }
        if it.first == UInt8(ascii: "-") { it.removeFirst() }
        if it.first == UInt8(ascii: "0") { it.removeFirst() } else if digits(&it) == 0 { return false }
        if it.first == UInt8(ascii: ".") { it.removeFirst(); if digits(&it) == 0 { return false } }
        if it.first == UInt8(ascii: "e") || it.first == UInt8(ascii: "E") {
            it.removeFirst()
            if it.first == UInt8(ascii: "+") || it.first == UInt8(ascii: "-") { it.removeFirst() }
            if digits(&it) == 0 { return false }
        }
        return it.isEmpty
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "$"):
            true
        default:
            false
        }
    }

    private mutating func readBareWordText() -> String {
        let from = index
        while index < bytes.count, isWordByte(bytes[index]) || (bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")) {
            index += 1
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<index]), as: UTF8.self)
    }

    /// true / false / null, or a bare word (True, NaN, undefined), reported and read as unreadable.
    private mutating func readWord() -> JSONValue {
        let start = position
        let word = readBareWordText()
        switch word {
        case "true": return JSONValue(kind: .bool(true), position: start)
        case "false": return JSONValue(kind: .bool(false), position: start)
        case "null": return JSONValue(kind: .null, position: start)
        default:
            let hint: String
            switch word.lowercased() {
            case "true", "false", "null": hint = "JSON literals are lower case: write \(word.lowercased())."
            default: hint = "Put text in double quotes: \"\(word)\"."
            }
            report(start, "\(word) is not a JSON value.", hint: hint)
            return JSONValue(kind: .unreadable, position: start)
        }
    }

    // MARK: Depth limit

    /// Skips a value nested deeper than `maxDepth` without recursion, honouring strings.
    private mutating func skipTooDeep() throws(Fatal) -> JSONValue {
        let start = position
        findings.add(kinds.nestingTooDeep.finding(at: source.location(path.pointer, start),
            "Arrays and objects are nested more than \(Self.maxDepth) levels deep here; the deeper value is skipped.",
            hint: "An association file needs at most 7 levels; remove the extra nesting."))
        var depth = 0
        scan: while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    index += 1
                    return JSONValue(kind: .unreadable, position: start)
                }
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
                    switch bytes[index] {
                    case UInt8(ascii: "\\"):
                        // The escaped byte is skipped too, but never past the end: a backslash as
                        // the last byte once left `index` two beyond it, and the "file ends" finding
                        // then named a column past the end of the file (found by fuzzing).
                        index = min(index + 2, bytes.count)
                        continue
                    default:
                        passOver(bytes[index])
                    }
                    index += 1
                }
                // An unclosed string runs to the end of the file: nothing is left to close.
                if index >= bytes.count { break scan }
            default:
                passOver(byte)
            }
            index += 1
        }
        throw unclosed("deeply nested value", start)
    }

    // MARK: Whitespace and comments

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                newLine(startingAt: index)
            case UInt8(ascii: "/") where index + 1 < bytes.count
                && (bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")):
                skipComment()
            default:
                return
            }
        }
    }

    private mutating func skipComment() {
        report(position, "JSON has no comments.", hint: "Delete the comment, or use a component's \"comment\" key.")
        let block = bytes[index + 1] == UInt8(ascii: "*")
        index += 2
        while index < bytes.count {
            let byte = bytes[index]
            passOver(byte)
            if byte == 0x0A && !block { index += 1; return }
            if block && byte == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/") {
                index += 2
                return
            }
            index += 1
        }
    }

    // MARK: Findings

    private mutating func report(_ at: TextPosition, _ message: String, hint: String? = nil) {
        findings.add(kinds.invalidJSON.finding(at: source.location(path.pointer, at), message, hint: hint))
    }

    private mutating func fatal(_ at: TextPosition, _ message: String) -> Fatal {
        report(at, message + " Reading stopped here, so nothing else in the file was checked.",
               hint: "Check the JSON syntax around line \(at.line) with a JSON linter.")
        return Fatal()
    }

    private mutating func unclosed(_ what: String, _ start: TextPosition) -> Fatal {
        fatal(position, "The file ends inside the \(what) that starts at line \(start.line).")
    }

    private mutating func unterminatedString(_ start: TextPosition) -> Fatal {
        fatal(start, "The string that starts here is never closed.")
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func describeRaw(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "0x" + String(byte, radix: 16)
    }
}
