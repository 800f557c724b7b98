/// An Android application ID (`com.example.app`), validated once for the app form, the API, the CLI
/// and the manifest import: dot-separated segments of ASCII letters, digits and `_`, at least two,
/// each starting with a letter (what Gradle accepts for `applicationId`).
public struct AndroidPackage: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let text: String

    /// Validates what a person typed or pasted: surrounding whitespace is dropped first.
    public init(typed input: String) throws(AndroidAppError) {
        let text = input.trimmingWhitespace()
        if let problem = Self.problem(in: text) { throw AndroidAppError(message: problem) }
        self.text = text
    }

    public var description: String { text }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.text < rhs.text }

    static func problem(in text: String) -> String? {
        if text.isEmpty { return "Write the package name (the applicationId), e.g. com.example.app." }
        func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
        func isAllowed(_ b: UInt8) -> Bool { isLetter(b) || (0x30...0x39).contains(b) || b == UInt8(ascii: "_") }
        let segments = Array(text.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if segments.contains(where: \.isEmpty) { return "\"\(text)\" has an empty segment (a leading, trailing or double dot)." }
        if segments.count < 2 { return "\"\(text)\" has one segment; an application ID has at least two, e.g. com.example.app." }
        if segments.contains(where: { !$0.allSatisfy(isAllowed) }) {
            return "\"\(text)\" has a character an application ID cannot have: only letters, digits, _ and dots."
        }
        if segments.contains(where: { !isLetter($0.first ?? 0) }) { return "Each segment of \"\(text)\" must start with a letter." }
        return nil
    }
}

/// The SHA-256 fingerprint of an Android app's signing certificate, in the form assetlinks.json
/// and Play Console use: 32 upper-case hex octets joined by colons. Typed input may be lower case or
/// without colons (keytool and apksigner print both); it is stored in the one form.
public struct CertificateFingerprint: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let text: String

    public init(typed input: String) throws(AndroidAppError) {
        let hex = input.trimmingWhitespace().uppercased().utf8.filter { $0 != UInt8(ascii: ":") }
        func isHex(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x41...0x46).contains(b) }
        guard hex.allSatisfy(isHex) else {
            throw AndroidAppError(message: "\"\(input)\" is not a fingerprint: write 32 hex octets separated by colons (Play Console › App integrity › App signing).")
        }
        guard hex.count == 64 else {
            throw AndroidAppError(message: hex.count == 40
                ? "\"\(input)\" is a SHA-1 fingerprint (20 octets); use the SHA-256 one (32 octets)."
                : "\"\(input)\" has \(hex.count / 2) octets; a SHA-256 fingerprint has 32.")
        }
        text = stride(from: 0, to: 64, by: 2).map { String(decoding: hex[$0..<$0 + 2], as: UTF8.self) }.joined(separator: ":")
    }

    public var description: String { text }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.text < rhs.text }
}

/// Which signing key a fingerprint belongs to. Play App Signing re-signs apps with Google's key, so an
/// app installed from Play carries the app-signing key and a sideloaded build the upload key; during a
/// key rotation both the old and the new key are listed. Raw values are the column's and the API's.
public enum SigningKeyRole: String, Hashable, Sendable, Codable, CaseIterable {
    case appSigning = "app-signing", upload, other

    public var label: String {
        switch self {
        case .appSigning: "App signing key (Play)"
        case .upload: "Upload key"
        case .other: "Other key"
        }
    }
}

/// Why a package name or fingerprint was refused: one sentence saying what to write instead.
public struct AndroidAppError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
