import ArgumentParser
import AssetLinks
import Vocabulary
import WebAuthn

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

/// The files `validate` reads: the two platforms' association files and the web's two passkey files.
enum ValidatedFile: Equatable {
    case apple, android, webauthn, passkeyEndpoints

    /// `--platform` forces the family; within web, and without `--platform`, the file's name decides
    /// (`webauthn`, `passkey-endpoints`, each also with `.json`), then its content: an object with
    /// `origins` is the related-origins file, one with `enroll`/`manage`/`prfUsageDetails` passkey-endpoints,
    /// anything else as `FileFormat.detect` says.
    static func detect(_ bytes: [UInt8], name: String, platform: PlatformOption?) -> ValidatedFile {
        switch platform {
        case .apple: return .apple
        case .android: return .android
        case .web:
            if let web = webByName(name) { return web }
            return PasskeyEndpointsReader.isPasskeyEndpoints(bytes) ? .passkeyEndpoints : .webauthn
        case nil:
            if let web = webByName(name) { return web }
            if FileFormat.byName(name) == nil {
                if RelatedOriginsReader.isRelatedOrigins(bytes) { return .webauthn }
                if PasskeyEndpointsReader.isPasskeyEndpoints(bytes) { return .passkeyEndpoints }
            }
            return FileFormat.detect(bytes, name: name) == .android ? .android : .apple
        }
    }

    private static func webByName(_ path: String) -> ValidatedFile? {
        let base = (path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path).lowercased()
        switch base {
        case "webauthn", "webauthn.json": return .webauthn
        case "passkey-endpoints", "passkey-endpoints.json": return .passkeyEndpoints
        default: return nil
        }
    }
}

/// `validate --platform`: Apple's and Android's association files, or the web's passkey files.
enum PlatformOption: String, ExpressibleByArgument, CaseIterable {
    case apple, android, web
}
