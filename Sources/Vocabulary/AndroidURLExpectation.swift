/// What a watched URL must do on Android when it is stated apart from Apple's expectation
/// (`watched_urls.expected_android`, the form's and the API's `android`, the config file's
/// `android:`): open this package, or open no app. Without one, Android's expectation is derived
/// from Apple's (`AndroidWatchedURLs.expected`: stay in the browser, or open the domain's first
/// expected package).
public enum AndroidURLExpectation: Hashable, Sendable, RawRepresentable, Codable, CustomStringConvertible {
    case opensPackage(String)
    case opensNothing

    /// The stored spelling: `nothing`, or the package name. Reads back only what `init(typed:)` accepts.
    public init?(rawValue: String) {
        if rawValue == "nothing" {
            self = .opensNothing
        } else if (try? AndroidPackage(typed: rawValue))?.text == rawValue {
            self = .opensPackage(rawValue)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .opensPackage(let package): package
        case .opensNothing: "nothing"
        }
    }

    /// As typed: a package name (the applicationId), or `nothing` / `browser` (any case) for no app.
    public init(typed input: String) throws(AndroidAppError) {
        let text = input.trimmingWhitespace()
        if ["nothing", "browser"].contains(text.lowercased()) {
            self = .opensNothing
        } else {
            self = .opensPackage(try AndroidPackage(typed: text).text)
        }
    }

    /// The outcome the URL must have on Android 15+.
    public var outcome: URLOutcome {
        switch self {
        case .opensPackage(let package): .opensApp(package)
        case .opensNothing: .staysInBrowser
        }
    }

    public var description: String { rawValue }
}
