import Glibc
import Vocabulary

/// The certificate facts of every open connection of one transfer loop, so a transfer that rides on
/// a connection another transfer opened still reports the certificate.
///
/// curl hands the chain (CURLOPT_CERTINFO) only to the transfer that made the handshake. The loop
/// keeps connections: Apple's CDN is one connection shared by every check, and HTTP/2 carries the
/// requests of a check on one connection. Without this, those requests had no certificate facts,
/// and the domain page's CDN card lost its Certificate and Expires rows after the first check.
/// Remembering the facts costs a dictionary entry per open connection; a fresh connection per
/// request would cost a TLS handshake each.
///
/// A connection is known by its address pair (local and peer address and port), which is what
/// curl's pre-request callback reports for new and reused connections alike, and which no two
/// open TCP connections share. The transfer that opened the socket records the facts before any
/// other transfer can use the connection (curl runs it into its request first); closing the socket
/// forgets them, so the table holds only open connections.
///
/// Used only on the transfer loop's thread (curl runs every callback there; the last closes happen in
/// `curl_multi_cleanup` after that thread has ended).
final class ConnectionCertificates {
    private var facts: [String: TLSFacts] = [:]
    private var addressPairOfSocket: [Int32: String] = [:]
    private static let limit = 1 << 16

    /// Open connections with remembered facts (for tests and statistics).
    var count: Int { facts.count }

    /// The opener of a new connection, in its pre-request callback: `certificate` is what its own
    /// handshake showed (nil when it did not ask, which also clears whatever an earlier connection
    /// with the same address pair left).
    func opened(_ addressPair: String, sockets: [Int32], certificate: TLSFacts?) {
        // A fence, not the bound: closes forget entries, but should curl ever close a socket without
        // our callback, forgetting everything costs some certificate rows, never a wrong one.
        if facts.count > Self.limit { facts.removeAll(keepingCapacity: true) }
        facts[addressPair] = certificate
        for socket in sockets where Self.addressPair(of: socket) == addressPair {
            addressPairOfSocket[socket] = addressPair
        }
    }

    /// A transfer on a reused connection: what the connection's handshake showed.
    func certificate(for addressPair: String) -> TLSFacts? { facts[addressPair] }

    /// curl closes one of our sockets.
    func closing(_ socket: Int32) {
        if let pair = addressPairOfSocket.removeValue(forKey: socket) { facts[pair] = nil }
    }

    /// The key for a connection, as the pre-request callback reports it.
    static func addressPair(local: String, localPort: Int, peer: String, peerPort: Int) -> String {
        "\(local) \(localPort) \(peer) \(peerPort)"
    }

    /// The same key read from the socket itself (the opener may have tried several addresses).
    static func addressPair(of socket: Int32) -> String? {
        guard let local = SocketAddress.local(socket), let peer = SocketAddress.peer(socket) else { return nil }
        return addressPair(local: local.host, localPort: local.port, peer: peer.host, peerPort: peer.port)
    }
}

/// A socket's numeric address, in the text form curl reports (`127.0.0.1`, `::1`).
enum SocketAddress {
    static func local(_ socket: Int32) -> (host: String, port: Int)? { read(socket, getsockname) }
    static func peer(_ socket: Int32) -> (host: String, port: Int)? { read(socket, getpeername) }

    private static func read(_ socket: Int32,
                             _ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32)
        -> (host: String, port: Int)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(socket, $0, &length) }
        }
        guard rc == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    var address = sin.pointee.sin_addr
                    guard inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil else { return nil }
                    return (String(cString: text), Int(UInt16(bigEndian: sin.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    var address = sin6.pointee.sin6_addr
                    guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return nil }
                    return (String(cString: text), Int(UInt16(bigEndian: sin6.pointee.sin6_port)))
                }
            }
        default:
            return nil
        }
    }
}
