/// A stored association file as pages show it: pretty-printed in the file's own key order, each line
/// with the JSON pointer of the value that starts on it (so a finding marks the line a person reads);
/// bytes that are not JSON are their text lines, pointers empty.
public struct FileText: Sendable, Hashable {
    public struct Line: Sendable, Hashable {
        public var text: String
        public var pointer: String

        public init(text: String, pointer: String) {
            self.text = text
            self.pointer = pointer
        }
    }

    /// False when the bytes were not JSON and `lines` are their text as served.
    public var pretty: Bool
    public var lines: [Line]

    public init(pretty: Bool, lines: [Line]) {
        self.pretty = pretty
        self.lines = lines
    }
}

/// Stored compactly, since a stored reading is worth keeping only while reading it back costs less
/// than reading the file again (Benchmarks/ReadingBench): the lines as one string, joined by line
/// feeds, and each line's pointer as a number into the distinct pointers (a pretty line's pointer
/// is often its neighbour's: a closing bracket repeats its opening one). A line per object
/// (`{"pointer": …, "text": …}`) made the stored text about ten times the file, and decoding it cost
/// more than parsing the file.
extension FileText: Codable {
    enum CodingKeys: String, CodingKey {
        /// The lines joined by "\n" (no line holds one: text lines are split at it, and pretty lines
        /// escape it); `lines` instead, as an array, for lines that do hold one, or no lines at all.
        case text, lines
        /// The distinct pointers, in the order lines first use them; absent when every pointer is empty.
        case pointers
        /// Each line's pointer as its index in `pointers`, as decimal numbers separated by commas
        /// (one string: a JSON array of numbers costs a decoder call per element).
        case at
        case pretty
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pretty = try c.decode(Bool.self, forKey: .pretty)
        let texts: [String]
        if let joined = try c.decodeIfPresent(String.self, forKey: .text) {
            // By byte: "\r\n" is one Character, and a CRLF file's lines end in "\r".
            texts = joined.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        } else {
            texts = try c.decode([String].self, forKey: .lines)
        }
        guard let pointers = try c.decodeIfPresent([String].self, forKey: .pointers) else {
            lines = texts.map { Line(text: $0, pointer: "") }
            return
        }
        let at = try c.decode(String.self, forKey: .at)
        var indices: [Int] = []
        indices.reserveCapacity(texts.count)
        var n = 0, digits = 0
        for byte in at.utf8 {
            if byte == UInt8(ascii: ",") {
                indices.append(n); n = 0; digits = 0
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 {
                n = n * 10 + Int(byte - UInt8(ascii: "0")); digits += 1
            } else {
                throw DecodingError.dataCorruptedError(forKey: .at, in: c, debugDescription: "not a list of line pointers")
            }
        }
        if !at.isEmpty { indices.append(n) }
        guard indices.count == texts.count, indices.allSatisfy({ $0 < pointers.count }) else {
            throw DecodingError.dataCorruptedError(forKey: .at, in: c,
                debugDescription: "\(indices.count) line pointers for \(texts.count) lines and \(pointers.count) pointers")
        }
        lines = zip(texts, indices).map { Line(text: $0, pointer: pointers[$1]) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pretty, forKey: .pretty)
        if lines.isEmpty || lines.contains(where: { $0.text.utf8.contains(0x0A) }) {
            try c.encode(lines.map(\.text), forKey: .lines)
        } else {
            try c.encode(lines.map(\.text).joined(separator: "\n"), forKey: .text)
        }
        guard lines.contains(where: { !$0.pointer.isEmpty }) else { return }
        var pointers: [String] = [], index: [String: Int] = [:], at: [String] = []
        at.reserveCapacity(lines.count)
        for line in lines {
            let i = index[line.pointer] ?? {
                pointers.append(line.pointer)
                index[line.pointer] = pointers.count - 1
                return pointers.count - 1
            }()
            at.append(String(i))
        }
        try c.encode(pointers, forKey: .pointers)
        try c.encode(at.joined(separator: ","), forKey: .at)
    }
}

/// What every view needs of one stored version of a platform's association file, computed by the
/// platform's core once, when the version is first stored (`association_versions.reading`): the text
/// to show and the document as the core understood it (for diffs and the URL tester). Pages render
/// from it and never parse the stored bytes; only the raw download serves the bytes themselves.
public struct VersionReading<Document: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The file's size in bytes.
    public var size: Int
    public var text: FileText
    /// nil when the platform's core cannot read the file (the page says so; the findings say why).
    public var document: Document?

    public init(size: Int, text: FileText, document: Document?) {
        self.size = size
        self.text = text
        self.document = document
    }
}
