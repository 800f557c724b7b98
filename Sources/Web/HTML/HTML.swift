import TextEncoding

/// Markup that is safe to send: every piece of it is either a literal written in our source code or
/// text that went through `HTML.escape`. There is no public way to turn an arbitrary `String` into
/// `HTML` without escaping it, so user input and crawled content cannot reach a page raw.
///
/// Build pages with string interpolation: the literal parts are trusted (they are `StaticString`s,
/// so they can only come from source code), interpolated `String`s are escaped, interpolated `HTML`
/// is inserted as is.
///
///     let row: HTML = "<td class=\"host\">\(domain.displayName)</td>"   // displayName is escaped
///
/// Escaping covers text and double-quoted attribute values (`& < > " '` all become references);
/// templates must always quote attribute values.
/// Not `CustomStringConvertible` on purpose: interpolating `HTML` into a plain `String` by mistake
/// then shows `HTML(rendered: …)` on the page, which tests catch, instead of silently escaping it.
public struct HTML: Sendable, Hashable {
    public private(set) var rendered: String

    /// Only this module's own code may claim a string is already markup (for example the escaper
    /// and the SVG charts, whose numbers are formatted here).
    init(uncheckedMarkup: String) { rendered = uncheckedMarkup }

    /// Text, escaped.
    public init(text: String) { rendered = HTML.escape(text) }

    public static let empty = HTML(uncheckedMarkup: "")

    public var isEmpty: Bool { rendered.isEmpty }

    public mutating func append(_ other: HTML) { rendered += other.rendered }
    public mutating func append(text: String) { HTML.escape(text, into: &rendered) }

    /// Lines of text, each escaped, joined by `<br>`: a message's own line breaks shown as line
    /// breaks (in HTML they would run together with the words around them).
    public init(lines: [String]) {
        rendered = lines.map(HTML.escape).joined(separator: "<br>")
    }

    /// Text whose line breaks (LF, CRLF or CR) are kept as `<br>`, everything escaped.
    public init(multiline text: String) {
        self.init(lines: text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init))
    }

    public static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(uncheckedMarkup: lhs.rendered + rhs.rendered) }

    public var utf8Bytes: [UInt8] { Array(rendered.utf8) }

    /// Escapes the five characters that matter in text and in quoted attribute values.
    public static func escape(_ text: String) -> String {
        var out = ""
        escape(text, into: &out)
        return out
    }

    static func escape(_ text: String, into out: inout String) { MarkupEscaping.html(text, into: &out) }
}

extension HTML: ExpressibleByStringInterpolation {
    /// Literals are `StaticString` on purpose: a runtime `String` cannot be passed where a literal
    /// is expected, so `HTML(stringLiteral: userInput)` does not compile.
    public typealias StringLiteralType = StaticString

    public init(stringLiteral value: StaticString) {
        rendered = value.description
    }

    public init(stringInterpolation: Interpolation) {
        rendered = stringInterpolation.output
    }

    public struct Interpolation: StringInterpolationProtocol {
        var output: String

        public init(literalCapacity: Int, interpolationCount: Int) {
            output = ""
            output.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        public mutating func appendLiteral(_ literal: StaticString) {
            output += literal.description
        }

        /// Markup built elsewhere by the same rules: inserted as is.
        public mutating func appendInterpolation(_ html: HTML) { output += html.rendered }
        public mutating func appendInterpolation(_ html: HTML?) { if let html { output += html.rendered } }
        public mutating func appendInterpolation(_ parts: [HTML]) { for p in parts { output += p.rendered } }

        /// Text from anywhere: escaped.
        public mutating func appendInterpolation(_ text: String) { HTML.escape(text, into: &output) }
        public mutating func appendInterpolation(_ text: Substring) { HTML.escape(String(text), into: &output) }
        public mutating func appendInterpolation(_ text: String?) { if let text { HTML.escape(text, into: &output) } }
        public mutating func appendInterpolation<I: BinaryInteger>(_ number: I) { output += String(number) }
    }
}

extension Sequence where Element == HTML {
    public func joined(separator: HTML = .empty) -> HTML {
        var out = ""
        var first = true
        for part in self {
            if !first { out += separator.rendered }
            out += part.rendered
            first = false
        }
        return HTML(uncheckedMarkup: out)
    }
}
