/// What a link does on a device: which app opens it, or none.
public enum URLOutcome: Hashable, Sendable, Codable, CustomStringConvertible {
    case opensApp(String)
    case staysInBrowser

    public var description: String {
        switch self {
        case .opensApp(let app): "opens \(app)"
        case .staysInBrowser: "stays in the browser"
        }
    }
}

/// A URL an operator watches, with what it should do.
public struct WatchedURL: Hashable, Sendable, Codable {
    public var url: String
    public var expected: URLOutcome

    public init(url: String, expected: URLOutcome) {
        self.url = url
        self.expected = expected
    }
}

/// What an operator says must be true of a domain's file.
public struct Expectations: Hashable, Sendable, Codable {
    /// App IDs (`TEAMID.bundle.id`) that must be present, per service.
    public var appIDs: [Service: [String]]
    public var watchedURLs: [WatchedURL]
    /// The URLs watched on Android, each with what it must do on Android 15+ (`opensApp` names a
    /// package): Apple's outcome and Android's are measured apart, against each platform's file.
    public var androidWatchedURLs: [WatchedURL]

    public init(appIDs: [Service: [String]] = [:], watchedURLs: [WatchedURL] = [], androidWatchedURLs: [WatchedURL] = []) {
        self.appIDs = appIDs
        self.watchedURLs = watchedURLs
        self.androidWatchedURLs = androidWatchedURLs
    }

    public var isEmpty: Bool { appIDs.values.allSatisfy(\.isEmpty) && watchedURLs.isEmpty && androidWatchedURLs.isEmpty }
}

/// How a watched URL behaved in one check.
public struct WatchedURLResult: Hashable, Sendable, Codable {
    public var url: String
    public var expected: URLOutcome
    public var actual: URLOutcome

    public init(url: String, expected: URLOutcome, actual: URLOutcome) {
        self.url = url
        self.expected = expected
        self.actual = actual
    }

    public var meetsExpectation: Bool { expected == actual }
}

/// The expectations measured against one file.
public struct ExpectationResults: Hashable, Sendable, Codable {
    /// Required app IDs the file does not carry, per service; services with none missing are absent.
    public var missingAppIDs: [Service: [String]]
    public var watchedURLs: [WatchedURLResult]

    public init(missingAppIDs: [Service: [String]] = [:], watchedURLs: [WatchedURLResult] = []) {
        self.missingAppIDs = missingAppIDs
        self.watchedURLs = watchedURLs
    }
}
