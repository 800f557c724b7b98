import Foundation

/// An app's rule indices in a file with few apps, where comparing a few names beats hashing one.
struct AppRules: Sendable {
    let appID: String
    let rules: [Int]
    /// The name's UTF-8 bytes, and whether they are all ASCII.
    private let bytes: [UInt8]
    private let isASCII: Bool

    init(appID: String, rules: [Int]) {
        self.appID = appID
        self.rules = rules
        bytes = Array(appID.utf8)
        isASCII = bytes.allSatisfy { $0 < 0x80 }
    }

    /// Whether `name` (whose UTF-8 is `bytes`, all ASCII when `ascii`) equals this app's ID by `String`'s
    /// `==`, which is what the dictionary for larger files uses. Two ASCII strings are equal exactly when
    /// their bytes are, so that case is a `memcmp`; anything else (where canonical equivalence can make
    /// different bytes equal, such as the Kelvin sign and `K`) is left to `==`.
    @inline(__always)
    func isNamed(_ name: String, bytes wanted: UnsafeBufferPointer<UInt8>, ascii: Bool) -> Bool {
        guard ascii && isASCII else { return appID == name }
        guard wanted.count == bytes.count else { return false }
        guard let wantedStart = wanted.baseAddress else { return bytes.isEmpty }
        return bytes.withUnsafeBufferPointer { mine in
            guard let myStart = mine.baseAddress else { return true }
            return memcmp(myStart, wantedStart, mine.count) == 0
        }
    }
}
