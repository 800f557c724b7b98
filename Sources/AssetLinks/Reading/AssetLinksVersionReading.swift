import LocatedJSON
import Vocabulary

extension VersionReading where Document == AssetLinksFile {
    /// Reads a stored assetlinks.json once: the text pages show and the statements as Google reads
    /// them (nil when unreadable). Never fails for malformed input.
    public init(assetLinks bytes: [UInt8]) {
        self.init(size: bytes.count, text: PrettyJSON.text(bytes), document: AssetLinksReader.read(bytes).file)
    }
}
