/// Which platforms' association files a domain is watched for: a domain's setting, stored as
/// `domains.platforms` and named by the same words in the form, the API, the CLI and config files.
///
/// `both` is the default and what ran before the setting existed: Apple always, Android where the
/// site serves assetlinks.json or an Android app is expected of it (a site with neither is not
/// failing for Android, issue #13). `apple` never asks for assetlinks.json; `android` never asks for
/// the AASA, and the domain's state is Android's alone.
public enum WatchedPlatforms: String, Hashable, Sendable, Codable, CaseIterable {
    case both, apple, android

    /// Whether this setting watches `platform` at all.
    public func watches(_ platform: Platform) -> Bool {
        switch self {
        case .both: true
        case .apple: platform == .apple
        case .android: platform == .android
        }
    }

    /// The words the form and the domain page use.
    public var label: String {
        switch self {
        case .both: "Apple and Android"
        case .apple: "Apple only"
        case .android: "Android only"
        }
    }

    /// Reads what a person or a client wrote ("both", "apple", "android", any case, surrounding
    /// blanks dropped); the message lists the words it accepts.
    public init(typed input: String) throws(WatchedPlatformsError) {
        let word = input.trimmingWhitespace().lowercased()
        guard let value = WatchedPlatforms(rawValue: word) else { throw WatchedPlatformsError(input: input) }
        self = value
    }
}

/// A platform setting that is not one of the three words.
public struct WatchedPlatformsError: Error, Hashable, Sendable, CustomStringConvertible {
    public let input: String
    public var message: String { "Unknown platforms \"\(input)\"; write both, apple or android." }
    public var description: String { message }
}
