import CIDN2

/// A host name to check, validated once: ASCII (Punycode) inside, Unicode for display.
///
/// Unicode input is converted with libidn2 (IDNA2008 with UTS #46 non-transitional mapping), the
/// way browsers and Apple's stack treat `bücher.example`; nothing here converts labels by hand.
/// A leading `*.` (a wildcard entitlement) is accepted and dropped: Apple serves `*.example.com`
/// from `example.com`'s own file (aasa-spec.md §2.1).
///
/// Not called `Host`: swift-corelibs-foundation has a `Host` class, and the two shadowed each other
/// in every file that imports both modules.
public struct HostName: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The ASCII form used on the wire and in URLs, lower-cased, no trailing dot.
    public let ascii: String
    /// The Unicode form for people; equal to `ascii` for plain ASCII names.
    public let unicode: String
    /// True when the input was `*.name`; `ascii` is then the parent `name`.
    public let isWildcard: Bool

    public var description: String { ascii }

    /// Validates and converts `input`. Throws for anything that is not a DNS host name
    /// (IP literals, ports, paths, schemes, empty labels, labels over 63 bytes, names over 253).
    public init(_ input: String) throws(HostNameError) {
        var text = input.trimmingWhitespace()
        var wildcard = false
        if text.hasPrefix("*.") {
            wildcard = true
            text.removeFirst(2)
        }
        if text.hasSuffix(".") { text.removeLast() }
        guard !text.isEmpty else { throw HostNameError(input: input, reason: "the host name is empty") }
        if let bad = text.unicodeScalars.first(where: { "/:@?#[] \\*".unicodeScalars.contains($0) }) {
            throw HostNameError(input: input, reason: "a host name cannot contain \"\(bad)\"; give the bare name, e.g. example.com")
        }
        let ascii = try Self.toASCII(text, input: input)
        try Self.checkLabels(ascii, input: input)
        if Self.looksLikeIPv4(ascii) {
            throw HostNameError(input: input, reason: "an IP address is not a domain; associated domains are host names")
        }
        self.ascii = ascii
        self.unicode = Self.toUnicode(ascii) ?? text.lowercased()
        self.isWildcard = wildcard
    }

    private static func toASCII(_ text: String, input: String) throws(HostNameError) -> String {
        var output: UnsafeMutablePointer<CChar>?
        let flags = Int32(IDN2_NONTRANSITIONAL.rawValue | IDN2_NFC_INPUT.rawValue)
        let rc = idn2_to_ascii_8z(text, &output, flags)
        guard rc == Int32(IDN2_OK.rawValue), let output else {
            let why = idn2_strerror(rc).map { String(cString: $0) } ?? "code \(rc)"
            throw HostNameError(input: input, reason: "not a valid internationalized host name (\(why))")
        }
        defer { idn2_free(output) }
        return String(cString: output).lowercased()
    }

    private static func toUnicode(_ ascii: String) -> String? {
        var output: UnsafeMutablePointer<CChar>?
        guard idn2_to_unicode_8z8z(ascii, &output, 0) == Int32(IDN2_OK.rawValue), let output else { return nil }
        defer { idn2_free(output) }
        return String(cString: output)
    }

    private static func checkLabels(_ ascii: String, input: String) throws(HostNameError) {
        guard ascii.utf8.count <= 253 else { throw HostNameError(input: input, reason: "the name is longer than 253 bytes") }
        let labels = ascii.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty else { throw HostNameError(input: input, reason: "the name has an empty label (\"..\")") }
            guard label.utf8.count <= 63 else {
                throw HostNameError(input: input, reason: "the label \"\(label)\" is longer than 63 bytes")
            }
            let allowed = label.utf8.allSatisfy { c in
                (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
            }
            guard allowed else { throw HostNameError(input: input, reason: "the label \"\(label)\" has characters a host name cannot have") }
            guard label.first != "-", label.last != "-" else {
                throw HostNameError(input: input, reason: "the label \"\(label)\" starts or ends with a hyphen")
            }
        }
    }

    private static func looksLikeIPv4(_ ascii: String) -> Bool {
        ascii.split(separator: ".").allSatisfy { $0.allSatisfy(\.isNumber) }
    }
}

/// Why a string is not a usable host name, in words for the person who typed it.
public struct HostNameError: Error, Hashable, Sendable, CustomStringConvertible {
    public let input: String
    public let reason: String
    public var description: String { "\"\(input)\" is not a usable host name: \(reason)." }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}
