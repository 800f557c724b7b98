import LocatedJSON
import Vocabulary

extension VersionReading where Document == AssetLinksFile {
    /// Reads a stored assetlinks.json once: the text pages show and the statements as Google reads
    /// them (nil when unreadable). Never fails for malformed input.
    public init(assetLinks bytes: [UInt8]) {
        self.init(assetLinks: bytes, parsed: AssetLinksReader.read(bytes).file)
    }

    /// The reading of a file a check has read already: `file` is that reading of these very bytes (nil
    /// when unreadable), so the file is not read a second time.
    public init(assetLinks bytes: [UInt8], parsed file: AssetLinksFile?) {
        self.init(size: bytes.count, text: PrettyJSON.text(bytes), document: file)
    }
}
