/// A stored association file as pages show it: pretty-printed in the file's own key order, each line
/// with the JSON pointer of the value that starts on it (so a finding marks the line a person reads);
/// bytes that are not JSON are their text lines, pointers empty.
public struct FileText: Codable, Sendable, Hashable {
    public struct Line: Codable, Sendable, Hashable {
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
