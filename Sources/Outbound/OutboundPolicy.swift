/// Which addresses the product may connect to. Domains and webhook URLs are typed in by people, so a
/// name that resolves to this machine, the LAN or a cloud metadata service must not be contacted (SSRF).
///
/// Pure: `refusal(for:)` decides on an address alone; resolving happens in the caller (the crawler's
/// resolver pool, `OutboundTarget.resolve` for blocking senders), pinning in `CurlEasy.pin`.
public struct OutboundPolicy: Hashable, Sendable {
    /// Tests and staging opt in to loopback/private targets explicitly; production never sets this.
    public var allowPrivateAddresses: Bool

    public init(allowPrivateAddresses: Bool = false) {
        self.allowPrivateAddresses = allowPrivateAddresses
    }

    /// Why `address` may not be contacted, or nil when it may.
    public func refusal(for address: IPAddress) -> String? {
        if allowPrivateAddresses { return nil }
        return Self.specialPurposeRange(of: address)
    }

    /// The first of a name's addresses that may not be contacted, and why; nil when all may.
    /// One refused address refuses the name: a name that points at this machine or the LAN is not a
    /// stranger's public server, whichever of its addresses a connection would try first.
    public func refusal(among addresses: [IPAddress]) -> (address: IPAddress, range: String)? {
        for address in addresses {
            if let range = refusal(for: address) { return (address, range) }
        }
        return nil
    }

    /// The name of the special-purpose range `address` falls in, or nil for a public unicast address.
    /// IPv6 forms that embed an IPv4 address (v4-mapped, v4-compatible, NAT64, 6to4, Teredo) are
    /// judged by the embedded address, because a translator or tunnel would deliver them there.
    public static func specialPurposeRange(of address: IPAddress) -> String? {
        switch address {
        case .v4(let a): return v4Range(a)
        case .v6(let b): return v6Range(b)
        }
    }

    private static let v4Ranges: [(network: UInt32, prefix: Int, name: String)] = [
        (0x0000_0000, 8, "\"this network\" 0.0.0.0/8 (unspecified)"),
        (0x0A00_0000, 8, "private 10.0.0.0/8 (RFC 1918)"),
        (0x6440_0000, 10, "shared CGNAT 100.64.0.0/10"),
        (0x7F00_0000, 8, "loopback 127.0.0.0/8"),
        (0xA9FE_0000, 16, "link-local 169.254.0.0/16"),
        (0xAC10_0000, 12, "private 172.16.0.0/12 (RFC 1918)"),
        (0xC000_0000, 24, "IETF protocol assignments 192.0.0.0/24"),
        (0xC000_0200, 24, "documentation 192.0.2.0/24"),
        (0xC058_6300, 24, "6to4 relay anycast 192.88.99.0/24"),
        (0xC0A8_0000, 16, "private 192.168.0.0/16 (RFC 1918)"),
        (0xC612_0000, 15, "benchmarking 198.18.0.0/15"),
        (0xC633_6400, 24, "documentation 198.51.100.0/24"),
        (0xCB00_7100, 24, "documentation 203.0.113.0/24"),
        (0xE000_0000, 4, "multicast 224.0.0.0/4"),
        (0xFFFF_FFFF, 32, "broadcast 255.255.255.255"),
        (0xF000_0000, 4, "reserved 240.0.0.0/4"),
    ]

    private static func v4Range(_ a: UInt32) -> String? {
        for range in v4Ranges {
            let mask: UInt32 = range.prefix == 0 ? 0 : ~UInt32(0) << (32 - range.prefix)
            if a & mask == range.network { return range.name }
        }
        return nil
    }

    private static func v4(_ b: [UInt8], at i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    private static func v6Range(_ b: [UInt8]) -> String? {
        guard b.count == 16 else { return "malformed IPv6 address" }
        let zeroPrefix = b[0..<10].allSatisfy { $0 == 0 }
        if b.allSatisfy({ $0 == 0 }) { return "unspecified ::" }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return "loopback ::1" }
        if zeroPrefix && b[10] == 0xFF && b[11] == 0xFF {
            return embedded("IPv4-mapped ::ffff:0:0/96", v4(b, at: 12), alwaysRefuse: false)
        }
        if b[0..<12].allSatisfy({ $0 == 0 }) {
            // Deprecated IPv4-compatible form ::a.b.c.d; no legitimate public use remains.
            return embedded("IPv4-compatible ::/96", v4(b, at: 12), alwaysRefuse: true)
        }
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xFF, b[3] == 0x9B {
            // 64:ff9b::/96 (well-known NAT64) and 64:ff9b:1::/48 (local-use NAT64).
            if b[4..<12].allSatisfy({ $0 == 0 }) {
                return embedded("NAT64 64:ff9b::/96", v4(b, at: 12), alwaysRefuse: false)
            }
            if b[4] == 0, b[5] == 1 { return "local-use NAT64 64:ff9b:1::/48" }
        }
        if b[0] == 0x20, b[1] == 0x02 {
            return embedded("6to4 2002::/16", v4(b, at: 2), alwaysRefuse: false)
        }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, b[3] == 0x00 {
            // Teredo 2001::/32: the client's IPv4 address is the last 32 bits, inverted.
            return embedded("Teredo 2001::/32", ~v4(b, at: 12), alwaysRefuse: false)
        }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return "documentation 2001:db8::/32" }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, b[3] & 0xF0 == 0x20 { return "ORCHIDv2 2001:20::/28" }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, b[3] < 0x02 { return "IETF protocol assignments 2001::/23" }
        if b[0] == 0x01, b[1] == 0x00, b[2..<8].allSatisfy({ $0 == 0 }) { return "discard-only 100::/64" }
        if b[0] & 0xFE == 0xFC { return "unique local fc00::/7 (private)" }
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return "link-local fe80::/10" }
        if b[0] == 0xFE, b[1] & 0xC0 == 0xC0 { return "site-local fec0::/10 (deprecated private)" }
        if b[0] == 0xFF { return "multicast ff00::/8" }
        if b[0] & 0xE0 != 0x20 { return "not global unicast (outside 2000::/3)" }
        return nil
    }

    private static func embedded(_ form: String, _ v4: UInt32, alwaysRefuse: Bool) -> String? {
        if let inner = v4Range(v4) {
            return "\(form) of \(IPAddress.v4(v4)), which is \(inner)"
        }
        return alwaysRefuse ? "\(form) (deprecated translation form)" : nil
    }
}
