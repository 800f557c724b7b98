/// The two platforms whose association files a domain can serve: Apple's
/// apple-app-site-association and Android's assetlinks.json (Digital Asset Links).
public enum Platform: String, Hashable, Sendable, Codable, CaseIterable {
    case apple, android
}

extension Platform {
    /// The platform's name in sentences and on pages ("Apple", "Android").
    public var label: String {
        switch self {
        case .apple: "Apple"
        case .android: "Android"
        }
    }
}
