import CShim
import Glibc

/// Opens the non-blocking listening socket for `host:port` (numeric address or resolvable name).
enum ListeningSocket {
    static func open(host: String, port: Int, backlog: Int) throws(SystemCallError) -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SystemCallError(call: "getaddrinfo(\(host))", code: status == EAI_SYSTEM ? errno : EINVAL)
        }
        defer { freeaddrinfo(list) }
        let info = first.pointee
        let fd = try checked("socket") {
            socket(info.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            var one: Int32 = 1
            // A restarted server must not wait for old connections in TIME_WAIT to rebind.
            _ = try checked("setsockopt(SO_REUSEADDR)") {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            _ = try checked("bind(\(host):\(port))") { bind(fd, info.ai_addr, info.ai_addrlen) }
            _ = try checked("listen") { listen(fd, Int32(backlog)) }
            var bound = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = try checked("getsockname") {
                withUnsafeMutablePointer(to: &bound) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                }
            }
            let family = Int32(bound.ss_family)
            let boundPort: Int = withUnsafePointer(to: &bound) { pointer in
                if family == AF_INET6 {
                    return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
                }
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
            return (fd, boundPort)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }
}
