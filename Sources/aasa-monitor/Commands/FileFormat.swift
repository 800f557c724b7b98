import AssetLinks
import Vocabulary

/// Which association file some bytes are: by the file's name first (`assetlinks.json` is Android's,
/// `apple-app-site-association` Apple's, whatever they hold), then by content — assetlinks.json is a
/// JSON array, or an object holding a statement's `relation` / `target` or a `statements` member
/// (Android's file in the wrong shape, which its validator reports as such); anything else is
/// apple-app-site-association (an object, or a signed CMS message).
enum FileFormat {
    static func detect(_ bytes: [UInt8], name: String? = nil) -> Platform {
        if let name, let byName = byName(name) { return byName }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let first = rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if first == UInt8(ascii: "[") { return .android }
        return first == UInt8(ascii: "{") && AssetLinksReader.isMisshapenAssetLinks(bytes) ? .android : .apple
    }

    /// The platform a path's last component names (case-insensitive; `apple-app-site-association`
    /// also with a `.json` extension, as files are often saved); nil for any other name and for `-`.
    static func byName(_ path: String) -> Platform? {
        let base = (path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path).lowercased()
        switch base {
        case "assetlinks.json": return .android
        case "apple-app-site-association", "apple-app-site-association.json": return .apple
        default: return nil
        }
    }
}
