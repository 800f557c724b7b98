import Store
import Synchronization

/// The documents of the stored files the URL tester answered from lately, by version. A version is
/// named by the SHA-256 of its bytes and its reading is made once from them, so its document never
/// changes: a person trying URL after URL against one domain, or a script's batch through the API,
/// decodes it once (decoding the stored document cost the tester more than parsing the file did,
/// Benchmarks/ReadingBench). Shared by the page and the API of one app; the oldest goes first.
final class RecentDocuments: Sendable {
    static let capacity = 16

    private struct Entries {
        var documents: [VersionKey: any Sendable] = [:]
        var order: [VersionKey] = []
    }

    private let entries = Mutex(Entries())

    /// The document of `key`, read by `read` when it is not here; a version that is not stored (nil)
    /// is not remembered, an unreadable one (`.some(nil)`) is.
    func document<Document: Sendable>(_ key: VersionKey, read: () throws -> Document??) rethrows -> Document?? {
        if let stored = entries.withLock({ $0.documents[key] }), let known = stored as? Document? { return .some(known) }
        guard let document = try read() else { return nil }
        entries.withLock { e in
            guard e.documents[key] == nil else { return }
            // Boxed as it is: assigned as an optional, an unreadable file's nil would remove the key.
            e.documents[key] = .some(document as any Sendable)
            e.order.append(key)
            if e.order.count > Self.capacity { e.documents[e.order.removeFirst()] = nil }
        }
        return .some(document)
    }
}
