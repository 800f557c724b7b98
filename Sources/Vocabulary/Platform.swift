/// The two platforms whose association files a domain can serve: Apple's
/// apple-app-site-association and Android's assetlinks.json (Digital Asset Links).
public enum Platform: String, Hashable, Sendable, Codable, CaseIterable {
    case apple, android
}
