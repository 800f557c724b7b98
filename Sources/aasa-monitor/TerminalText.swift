import Foundation

/// Text on its way to a terminal, escaped by construction: the literal parts of a `TerminalText`
/// are ours and kept as written (our own line breaks, tabs and the progress bar's carriage return),
/// and every interpolated value is escaped, because values come from files, crawled sites, HTTP
/// headers, certificates and the database, any of which a stranger may have written. Unescaped, an
/// ESC sequence in an association file could clear the screen, retitle the window or hide the lines
/// above it, a carriage return could overwrite a FAIL with a PASS, and a bidi override could make a
/// URL read backwards.
///
/// Every command's text output goes through `Terminal`, which takes only `TerminalText` (and JSON,
/// escaped as JSON); a CLI test keeps other writes to standard output and error out of the sources.
struct TerminalText: ExpressibleByStringInterpolation, Equatable, Sendable {
    /// The escaped text, ready to write.
    private(set) var rendered: String

    /// Literals are `StaticString`s, as in the web's `HTML`: only source code can write unescaped text.
    init(stringLiteral literal: StaticString) {
        rendered = literal.description
    }

    init(stringInterpolation: StringInterpolation) {
        rendered = stringInterpolation.rendered
    }

    /// Lines another module formatted (a diff, the status table): each line is escaped whole, so a
    /// line break inside a value cannot start a line of its own; the lines are joined by ours.
    init(lines: [String]) {
        rendered = lines.map(Self.escape).joined(separator: "\n")
    }

    struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var rendered = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            rendered.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: StaticString) {
            rendered += literal.description
        }

        /// Any value, as `String(describing:)` writes it, escaped.
        mutating func appendInterpolation<Value>(_ value: Value) {
            rendered += TerminalText.escape(String(describing: value))
        }

        /// Already escaped: a piece built the same way.
        mutating func appendInterpolation(_ text: TerminalText) {
            rendered += text.rendered
        }
    }

    static func += (lhs: inout TerminalText, rhs: TerminalText) {
        lhs.rendered += rhs.rendered
    }

    static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText {
        var sum = lhs
        sum += rhs
        return sum
    }

    /// Each control character as a visible escape: C0 (line breaks, tabs and ESC included), DEL and
    /// C1 (U+0080–U+009F: U+009B is a one-character CSI for terminals that honour C1), plus the
    /// invisible characters that reorder or break a line (bidi embeddings, overrides and isolates,
    /// the line and paragraph separators). Escaping ESC defuses every escape sequence: what follows
    /// it is printable. Backslashes stay as they are, so Windows paths and patterns read normally.
    static func escape(_ text: String) -> String {
        // Fast path: almost every value is plain printable text.
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // ALM, LRM/RLM, LRE…RLO, LRI…PDI; U+2028/2029 break lines in some terminals and editors.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// JSON text from `JSONEncoder`, which escapes C0 controls but writes DEL, C1 controls and bidi
    /// characters raw. Those can only stand inside strings, where `\uXXXX` means the same character:
    /// the output stays equal JSON for a parser and harmless for a terminal.
    init(json: String) {
        guard json.unicodeScalars.contains(where: Self.needsEscape) else {
            rendered = json
            return
        }
        var out = ""
        for scalar in json.unicodeScalars {
            if Self.needsEscape(scalar), scalar.value >= 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                // The encoder's own line breaks (pretty printing) are C0 and stay.
                out.unicodeScalars.append(scalar)
            }
        }
        rendered = out
    }

    /// YAML from `ConfigWriter`, which double-quotes every string holding such characters: inside
    /// double quotes `\uXXXX` means the same character, as in JSON, so the same escaping keeps the
    /// file equal for a YAML reader and harmless for a terminal.
    init(yaml: String) {
        self.init(json: yaml)
    }
}

extension Sequence<TerminalText> {
    func joined(separator: TerminalText) -> TerminalText {
        var out: TerminalText = ""
        for (index, text) in enumerated() {
            if index > 0 { out += separator }
            out += text
        }
        return out
    }
}

/// The only writer of command output. Standard output carries results; standard error carries
/// errors, notes and progress.
enum Terminal {
    static func print(_ text: TerminalText, terminator: TerminalText = "\n") {
        write((text + terminator).rendered, to: .standardOutput)
    }

    static func printError(_ text: TerminalText, terminator: TerminalText = "\n") {
        write((text + terminator).rendered, to: .standardError)
    }

    /// `Swift.print` buffers standard output while `FileHandle` does not; going through one writer
    /// keeps results, errors and progress in the order they were made.
    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
