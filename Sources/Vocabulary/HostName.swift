/// A host name to monitor, validated once: ASCII (Punycode) inside, Unicode for display, and the
/// `*.` wildcard flag. One rule for the registration form, the API, `import`, `check-now` and `check`.
///
/// Pure: the IDNA conversion (IDNA2008 with UTS #46 non-transitional mapping, the way browsers and
/// Apple's stack treat `bücher.example`) needs libidn2's tables, so it comes in as an
/// `IDNAConversion`; Fetch supplies libidn2's as `HostName(_:)`. Nothing here converts labels by hand.
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

    /// Validates and converts `input` as a person typed it (surrounding white space is dropped).
    /// Throws for anything that is not a DNS host name, saying which part to remove: a scheme, a
    /// path, a port, an IP address, empty labels, labels over 63 bytes, names over 253.
    public init(_ input: String, idna: some IDNAConversion) throws(HostNameError) {
        var text = input.trimmingWhitespace()
        try Self.refusePastedURLParts(text, input: input)
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
        let ascii: String
        do {
            ascii = try idna.toASCII(text).lowercased()
        } catch {
            throw HostNameError(input: input, reason: "not a valid internationalized host name (\(error.reason))")
        }
        try Self.checkLabels(ascii, input: input)
        if Self.looksLikeIPv4(ascii) { throw HostNameError.ipAddress(input) }
        self.ascii = ascii
        self.unicode = idna.toUnicode(ascii) ?? text.lowercased()
        self.isWildcard = wildcard
    }

    /// A name read back from where it was stored converted (`domains.host`: the ASCII form, lower-cased,
    /// without `*.`; `display_name`: its Unicode form): no IDNA conversion is made again, but the ASCII
    /// form must still be a host name (labels, length, no IP address). Throws for one that is not.
    public init(storedASCII ascii: String, unicode: String, wildcard: Bool = false) throws(HostNameError) {
        guard !ascii.isEmpty, ascii == ascii.lowercased(), ascii.utf8.allSatisfy({ $0 < 0x80 }) else {
            throw HostNameError(input: ascii, reason: "a stored host name must be its lower-case ASCII form")
        }
        try Self.checkLabels(ascii, input: ascii)
        if Self.looksLikeIPv4(ascii) { throw HostNameError.ipAddress(ascii) }
        self.ascii = ascii
        self.unicode = unicode
        self.isWildcard = wildcard
    }

    /// The usual paste mistakes (a URL, a path, a port, an IP literal), each with the part to remove.
    private static func refusePastedURLParts(_ text: String, input: String) throws(HostNameError) {
        guard !text.isEmpty else { throw HostNameError(input: input, reason: "enter a host name, e.g. example.com") }
        if let colon = text.indices.first(where: { text[$0...].hasPrefix("://") }) {
            throw HostNameError(input: input, reason: "enter the host name only, without \"\(text[..<colon])://\": "
                                + "Apple always fetches the file over https from the host itself")
        }
        if let slash = text.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            throw HostNameError(input: input, reason: "enter the host name only, without the path \"\(text[slash...])\": "
                                + "the association file always lives at /.well-known/apple-app-site-association")
        }
        if text.hasPrefix("[") || text.filter({ $0 == ":" }).count >= 2 { throw HostNameError.ipAddress(input) }
        if let colon = text.lastIndex(of: ":") {
            throw HostNameError(input: input, reason: "remove the port \"\(text[colon...])\": Apple fetches the file from port 443 only")
        }
    }

    private static func checkLabels(_ ascii: String, input: String) throws(HostNameError) {
        guard ascii.utf8.count <= 253 else { throw HostNameError(input: input, reason: "the name is longer than 253 bytes") }
        let labels = ascii.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty else { throw HostNameError(input: input, reason: "the name has an empty label (\"..\")") }
            guard label.utf8.count <= 63 else {
                throw HostNameError(input: input, reason: "the label \"\(label)\" is longer than 63 bytes")
            }
            // Letters, digits and hyphens only: an underscore is in some DNS names (_dmarc) but in no
            // host name a certificate may cover, and the domains table refuses it (a 500 before).
            let allowed = label.utf8.allSatisfy { c in
                (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D
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
    /// What is wrong, as a clause: "remove the port \":8443\": …".
    public let reason: String

    static func ipAddress(_ input: String) -> HostNameError {
        HostNameError(input: input, reason: "\"\(input.trimmingWhitespace())\" is an IP address: associated domains are host names, "
                      + "and devices never fetch from IP addresses")
    }

    /// The reason as a sentence, for a form field or an API error.
    public var message: String { reason.prefix(1).uppercased() + reason.dropFirst() + "." }
    public var description: String { "\"\(input)\" is not a usable host name: \(reason)." }
}

/// Converts a Unicode host name to its ASCII (Punycode) form and back, per IDNA2008 / UTS #46.
/// Supplied from outside the pure modules (libidn2 in Fetch), so Vocabulary links no C library.
public protocol IDNAConversion {
    /// The ASCII form of `name` (labels already ASCII stay as they are).
    func toASCII(_ name: String) throws(IDNAFailure) -> String
    /// The Unicode form of an ASCII name, nil when it cannot be decoded.
    func toUnicode(_ ascii: String) -> String?
}

/// Why a name has no IDNA form, in the library's words.
public struct IDNAFailure: Error, Hashable, Sendable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
}
