import Store
import Testing
import Vocabulary
@testable import Web

/// The tester decodes a stored file's document once per version: a version asked again is answered
/// from memory, another version (or the other platform's file of the same hash) is read, and the
/// oldest goes when more than `capacity` are kept.
struct RecentDocumentsTests {
    final class Reads: @unchecked Sendable { var count = 0 }

    static func key(_ n: Int, _ platform: Platform = .apple) -> VersionKey { VersionKey(platform, sha256: String(repeating: "\(n % 10)", count: 63) + "\(n)") }

    @Test func aVersionIsReadOnce() {
        let recent = RecentDocuments(), reads = Reads()
        for _ in 0..<3 {
            let document: String?? = recent.document(Self.key(1)) { reads.count += 1; return .some("one") }
            #expect(document == .some("one"))
        }
        #expect(reads.count == 1)
        let android: String?? = recent.document(Self.key(1, .android)) { reads.count += 1; return .some("android") }
        #expect(android == .some("android") && reads.count == 2, "the other platform's file of the same hash is another version")
    }

    @Test func anUnreadableFileIsRememberedAndAMissingVersionIsNot() {
        let recent = RecentDocuments(), reads = Reads()
        for _ in 0..<2 {
            let unreadable: String?? = recent.document(Self.key(2)) { reads.count += 1; return .some(nil) }
            #expect(unreadable == .some(nil))
        }
        #expect(reads.count == 1)
        for _ in 0..<2 {
            let missing: String?? = recent.document(Self.key(3)) { reads.count += 1; return nil }
            #expect(missing == nil)
        }
        #expect(reads.count == 3, "a version not stored yet may be stored by the next check")
    }

    @Test func theOldestGoesFirst() {
        let recent = RecentDocuments(), reads = Reads()
        for n in 0...RecentDocuments.capacity {
            let _: String?? = recent.document(Self.key(n)) { reads.count += 1; return .some("\(n)") }
        }
        #expect(reads.count == RecentDocuments.capacity + 1)
        let second: String?? = recent.document(Self.key(1)) { reads.count += 1; return .some("again") }
        #expect(second == .some("1") && reads.count == RecentDocuments.capacity + 1)
        let first: String?? = recent.document(Self.key(0)) { reads.count += 1; return .some("again") }
        #expect(first == .some("again") && reads.count == RecentDocuments.capacity + 2)
    }

    @Test func aDocumentOfAnotherTypeIsReadAgain() {
        let recent = RecentDocuments(), reads = Reads()
        let _: String?? = recent.document(Self.key(4)) { reads.count += 1; return .some("text") }
        let number: Int?? = recent.document(Self.key(4)) { reads.count += 1; return .some(4) }
        #expect(number == .some(4) && reads.count == 2)
    }
}
