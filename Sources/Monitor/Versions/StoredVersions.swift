import AASA
import AssetLinks
import Store
import Vocabulary

/// The one way pages, the API, the tester and the pipeline read a stored association file: as the
/// `VersionReading` the platform's core made of it when the version was first stored. A version
/// stored without one (before migration 0033, or by a writer that had none: imports, seeding) is read
/// here once, on its first use, and its reading written back, so no version is parsed twice.
public enum StoredVersions {
    /// Apple's file `sha256`; nil when no such version is stored.
    public static func apple(_ sha256: String, in store: any CheckStore) throws -> VersionReading<AASADocument>? {
        try reading(VersionKey(.apple, sha256: sha256), in: store, read: VersionReading.init(aasa:))
    }

    /// Android's file `sha256`; nil when no such version is stored.
    public static func android(_ sha256: String, in store: any CheckStore) throws -> VersionReading<AssetLinksFile>? {
        try reading(VersionKey(.android, sha256: sha256), in: store, read: VersionReading.init(assetLinks:))
    }

    /// The document alone of Apple's file `sha256` (the URL tester's need): nil when no such version is
    /// stored, `.some(nil)` when the file could not be read as an AASA.
    public static func appleDocument(_ sha256: String, in store: any CheckStore) throws -> AASADocument?? {
        try document(VersionKey(.apple, sha256: sha256), in: store, read: VersionReading.init(aasa:))
    }

    /// The document alone of Android's file `sha256`: nil when no such version is stored, `.some(nil)`
    /// when the file could not be read as an assetlinks.json.
    public static func androidDocument(_ sha256: String, in store: any CheckStore) throws -> AssetLinksFile?? {
        try document(VersionKey(.android, sha256: sha256), in: store, read: VersionReading.init(assetLinks:))
    }

    static func reading<Document>(_ key: VersionKey, in store: any CheckStore,
                                  read: ([UInt8]) -> VersionReading<Document>) throws -> VersionReading<Document>? {
        switch try store.versionReading(key, of: Document.self) {
        case nil: return nil
        case .read(let reading)?: return reading
        case .unread(let bytes)?: return try readOnce(bytes, key, in: store, read: read)
        }
    }

    static func document<Document>(_ key: VersionKey, in store: any CheckStore,
                                   read: ([UInt8]) -> VersionReading<Document>) throws -> Document?? {
        switch try store.versionDocument(key, of: Document.self) {
        case nil: return nil
        case .read(let document)?: return .some(document)
        case .unread(let bytes)?: return .some(try readOnce(bytes, key, in: store, read: read).document)
        }
    }

    /// A version without a reading is read here, by its first reader, and the reading written back.
    private static func readOnce<Document>(_ bytes: [UInt8], _ key: VersionKey, in store: any CheckStore,
                                           read: ([UInt8]) -> VersionReading<Document>) throws -> VersionReading<Document> {
        let reading = read(bytes)
        try store.saveReading(reading, for: key)
        return reading
    }
}
