import Vocabulary

extension OriginURL {
    /// Code points the URL Standard forbids in a domain (after IDNA): a host holding one is a failure.
    /// `*` is not among them, so `https://*.example.com` parses, with `*` as a literal character.
    private static let forbiddenInDomain: Set<Unicode.Scalar> = Set("\u{7F} #%/:<>?@[\\]^|".unicodeScalars)

    /// A special URL's host: a bracketed IPv6 address, an IPv4 address (any last label that is a
    /// number), or a domain in lower-case Punycode.
    static func parseHost(_ text: Substring, rules: DomainRules, changes: inout Set<Change>) -> Result<Host, OriginURLFailure> {
        guard !text.isEmpty else { return .failure(OriginURLFailure(reason: "it has no host; write https://host, e.g. https://shop.example")) }
        if text.hasPrefix("[") {
            let inner = text.dropFirst().dropLast()
            guard text.hasSuffix("]"), !inner.isEmpty,
                  inner.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." }), inner.contains(":") else {
                return .failure(OriginURLFailure(reason: "\(text) is not a valid IPv6 address"))
            }
            return .success(.ipv6(text.lowercased()))
        }
        let decoded = percentDecoded(text)
        if decoded != String(text) { changes.insert(.percentDecoded) }
        var ascii: String
        if decoded.unicodeScalars.allSatisfy(\.isASCII) {
            ascii = decoded.lowercased()
            if ascii != decoded { changes.insert(.lowerCased) }
        } else {
            do {
                ascii = try rules.idna.toASCII(decoded).lowercased()
            } catch {
                return .failure(OriginURLFailure(reason: "the host \(decoded) is not a valid internationalized domain name (\(error.reason))"))
            }
            changes.insert(.punycoded)
        }
        if let bad = ascii.unicodeScalars.first(where: { $0.value < 0x20 || forbiddenInDomain.contains($0) }) {
            return .failure(OriginURLFailure(reason: "the host \(ascii) contains \"\(bad.escaped(asASCII: true))\", which no host name may hold"))
        }
        if endsInANumber(ascii) {
            guard let address = ipv4(ascii) else {
                return .failure(OriginURLFailure(reason: "the host \(ascii) ends in a number but is not a valid IPv4 address"))
            }
            return .success(.ipv4(address))
        }
        return .success(.domain(ascii))
    }

    /// %XX escapes decoded as UTF-8 bytes; a malformed escape stays as written.
    private static func percentDecoded(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.first {
            if byte == UInt8(ascii: "%"), utf8.count >= 3, let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
                utf8 = utf8.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The URL Standard's "ends in a number": the last label (a trailing empty one set aside) is
    /// decimal digits or 0x-hex, so the host must be an IPv4 address.
    private static func endsInANumber(_ host: String) -> Bool {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.last == "", labels.count > 1 { labels.removeLast() }
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        let lower = last.lowercased()
        return lower.hasPrefix("0x") && lower.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// The URL Standard's IPv4 parser (decimal, 0x hex and 0-prefixed octal parts; fewer than four
    /// parts fill the last one's bytes), serialised dotted; nil when it is no address.
    private static func ipv4(_ host: String) -> String? {
        var parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last == "", parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = ipv4Number(part) else { return nil }
            numbers.append(number)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }), let last = numbers.last else { return nil }
        let lastLimit = UInt64(1) << (8 * (5 - numbers.count))
        guard last < lastLimit else { return nil }
        var address = last
        for (index, number) in numbers.dropLast().enumerated() { address += number << (8 * (3 - index)) }
        return (0..<4).map { String((address >> (8 * (3 - $0))) & 0xFF) }.joined(separator: ".")
    }

    private static func ipv4Number(_ part: Substring) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part
        var radix = 10
        if digits.count >= 2, digits.lowercased().hasPrefix("0x") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.hasPrefix("0") {
            digits = digits.dropFirst()
            radix = 8
        }
        if digits.isEmpty { return 0 }
        guard digits.count <= 16 else { return nil }
        return UInt64(digits, radix: radix)
    }
}
