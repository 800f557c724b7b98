import Glibc

/// An IPv4 or IPv6 address as bytes, so the outbound policy can reason about ranges exactly.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4(UInt32)
    /// 16 bytes, network order.
    case v6([UInt8])

    /// Parses a numeric address (`192.0.2.1`, `2001:db8::1`, `[::1]`); nil for anything else.
    public init?(_ text: String) {
        var stripped = Substring(text)
        if stripped.hasPrefix("["), stripped.hasSuffix("]") { stripped = stripped.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(stripped), &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(stripped), &v6) == 1 {
            self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    /// The address of a socket address of `family` (AF_INET or AF_INET6); nil for any other family.
    init?(_ socketAddress: UnsafePointer<sockaddr>, family: Int32) {
        switch family {
        case AF_INET:
            self = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .v4(UInt32(bigEndian: $0.pointee.sin_addr.s_addr)) }
        case AF_INET6:
            self = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var address = pointer.pointee.sin6_addr
                return .v6(withUnsafeBytes(of: &address) { Array($0) })
            }
        default:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .v4(let value):
            return "\(value >> 24).\((value >> 16) & 0xFF).\((value >> 8) & 0xFF).\(value & 0xFF)"
        case .v6(let bytes):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { raw in
                for (i, b) in bytes.prefix(16).enumerated() { raw[i] = b }
            }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "::?" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The form curl expects in `CURLOPT_RESOLVE` / `CURLOPT_CONNECT_TO`: IPv6 in brackets.
    public var curlLiteral: String {
        switch self {
        case .v4: description
        case .v6: "[\(description)]"
        }
    }
}
