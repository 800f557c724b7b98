import LocatedJSON
import Vocabulary

extension VersionReading where Document == AASADocument {
    /// Reads a stored apple-app-site-association once: the text pages show and the document as a
    /// device reads it (nil when unreadable). Never fails for malformed input.
    public init(aasa bytes: [UInt8]) {
        self.init(size: bytes.count, text: PrettyJSON.text(bytes), document: AASAParser.parse(bytes).document)
    }
}
