import LocatedJSON
import Vocabulary

extension VersionReading where Document == AASADocument {
    /// Reads a stored apple-app-site-association once: the text pages show and the document as a
    /// device reads it (nil when unreadable). Never fails for malformed input.
    public init(aasa bytes: [UInt8]) {
        self.init(aasa: bytes, parsed: AASAParser.parse(bytes).document)
    }

    /// The reading of a file a check has parsed already: `document` is that parse of these very bytes
    /// (nil when unreadable), so the file is not parsed a second time.
    public init(aasa bytes: [UInt8], parsed document: AASADocument?) {
        self.init(size: bytes.count, text: PrettyJSON.text(bytes), document: document)
    }
}
