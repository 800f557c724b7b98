import AASA
import CCurl
import CShim
import Glibc

/// One libcurl easy handle and what it has received so far. Lives on the transfer loop's thread
/// from `start` to `finish`; curl's callbacks reach it through an unmanaged pointer.
final class CurlTransfer {
    let request: TransferRequest
    let handle: UnsafeMutableRawPointer
    let completion: @Sendable (TransportFacts) -> Void
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    private(set) var decodedSize = 0
    private(set) var truncated = false
    private(set) var abortedTooLarge = false
    /// Set when the socket callback refused an address that was not pinned (belt and braces
    /// against a resolver path we did not foresee).
    fileprivate(set) var refusedUnpinnedAddress: String?
    /// Sockets this transfer opened (more than one when curl tries several addresses).
    fileprivate var openedSockets: [Int32] = []
    /// The certificate of the connection this transfer ran on, as its handshake showed it (this
    /// transfer's, or an earlier one's on a reused connection).
    private(set) var connectionCertificate: TLSFacts?
    private let connections: ConnectionCertificates
    private let bodyLimit: Int
    private let measureLimit: Int
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init?(request: TransferRequest, settings: TransferSettings, connections: ConnectionCertificates,
          completion: @escaping @Sendable (TransportFacts) -> Void) {
        guard let handle = curl_easy_init() else { return nil }
        self.request = request
        self.connections = connections
        self.handle = handle
        self.completion = completion
        self.bodyLimit = settings.bodyLimit
        self.measureLimit = settings.measureLimit
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        configure(settings)
    }

    deinit {
        curl_easy_cleanup(handle)
        for list in lists { curl_slist_free_all(list) }
        errorBuffer.deallocate()
    }

    private func set(_ option: CURLoption, _ value: Int) { _ = cshim_curl_setopt_long(handle, option, value) }
    private func set(_ option: CURLoption, _ value: String) { _ = value.withCString { cshim_curl_setopt_ptr(handle, option, $0) } }
    private func set(_ option: CURLoption, pointer: UnsafeRawPointer?) { _ = cshim_curl_setopt_ptr(handle, option, pointer) }

    private func set(_ option: CURLoption, list items: [String]) {
        var list: UnsafeMutablePointer<curl_slist>?
        for item in items { list = curl_slist_append(list, item) }
        guard let list else { return }
        lists.append(list)   // curl reads the list during the transfer, so it lives as long as we do
        set(option, pointer: UnsafeRawPointer(list))
    }

    private func configure(_ settings: TransferSettings) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        set(CURLOPT_URL, request.url)
        set(CURLOPT_PRIVATE, pointer: me)
        set(CURLOPT_NOSIGNAL, 1)
        // Apple's fetcher never follows redirects: a 3xx is the finding, not a hop to take.
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_PROTOCOLS_STR, "https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, "https")
        set(CURLOPT_USERAGENT, request.userAgent)
        // "" = every encoding this libcurl decodes; the 128 KB limit is on the decoded body.
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMilliseconds)
        set(CURLOPT_TIMEOUT_MS, settings.totalTimeoutMilliseconds)
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))
        if let caPath = settings.caPath {
            set(CURLOPT_CAPATH, caPath)
            // Only the extra CA as a file; NULL stops curl from parsing its default bundle per handle.
            if let caFile = settings.caFile { set(CURLOPT_CAINFO, caFile) } else { set(CURLOPT_CAINFO, pointer: nil) }
        } else if let caFile = settings.caFile {
            set(CURLOPT_CAINFO, caFile)
        }
        set(CURLOPT_SSL_VERIFYPEER, request.verifyPeer ? 1 : 0)
        set(CURLOPT_SSL_VERIFYHOST, request.verifyPeer ? 2 : 0)
        if request.wantCertificate { set(CURLOPT_CERTINFO, 1) }
        if request.freshConnection { set(CURLOPT_FRESH_CONNECT, 1) }
        // The requests of one check start together: wait to share one HTTP/2 connection rather
        // than open one each.
        set(CURLOPT_PIPEWAIT, 1)

        // Pin: curl must connect to the addresses the policy judged, not resolve the name again
        // (DNS rebinding). The socket callback below enforces the same list.
        let target = request.connectTarget ?? (request.host, request.port)
        if let connectTarget = request.connectTarget {
            let hostField = connectTarget.host.contains(":") ? "[\(connectTarget.host)]" : connectTarget.host
            set(CURLOPT_CONNECT_TO, list: ["\(request.host):\(request.port):\(hostField):\(connectTarget.port)"])
        }
        if IPAddress(target.host) == nil, !request.pinnedAddresses.isEmpty {
            let addresses = request.pinnedAddresses.map(\.curlLiteral).joined(separator: ",")
            set(CURLOPT_RESOLVE, list: ["\(target.host):\(target.port):\(addresses)"])
        }
        set(CURLOPT_OPENSOCKETFUNCTION, pointer: unsafeBitCast(openSocketCallback, to: UnsafeRawPointer.self))
        set(CURLOPT_OPENSOCKETDATA, pointer: me)
        // The connection outlives this transfer, so its close reaches the loop's table, not us.
        set(CURLOPT_CLOSESOCKETFUNCTION, pointer: unsafeBitCast(closeSocketCallback, to: UnsafeRawPointer.self))
        set(CURLOPT_CLOSESOCKETDATA, pointer: UnsafeRawPointer(Unmanaged.passUnretained(connections).toOpaque()))
        set(CURLOPT_PREREQFUNCTION, pointer: unsafeBitCast(prerequestCallback, to: UnsafeRawPointer.self))
        set(CURLOPT_PREREQDATA, pointer: me)
        // Reused connections report the certificate of their handshake: renew them hourly so a
        // renewed certificate (say, on the CDN connection every check shares) is seen within the hour.
        set(CURLOPT_MAXLIFETIME_CONN, 3600)

        set(CURLOPT_WRITEFUNCTION, pointer: unsafeBitCast(writeCallback, to: UnsafeRawPointer.self))
        set(CURLOPT_WRITEDATA, pointer: me)
        set(CURLOPT_HEADERFUNCTION, pointer: unsafeBitCast(headerCallback, to: UnsafeRawPointer.self))
        set(CURLOPT_HEADERDATA, pointer: me)
    }

    /// Returns false to make curl abort the transfer (body past the measuring limit).
    fileprivate func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        decodedSize += bytes.count
        let room = bodyLimit - body.count
        if room > 0 { body.append(contentsOf: bytes.prefix(room)) }
        if bytes.count > room { truncated = true }
        if decodedSize > measureLimit {
            abortedTooLarge = true
            return false
        }
        return true
    }

    fileprivate func receiveHeader(_ line: String) {
        if line.hasPrefix("HTTP/") {
            headers = [:]   // a new response (e.g. after 100 Continue) starts a new header set
            return
        }
        guard let colon = line.firstIndex(of: ":"), headers.count < 200 else { return }
        let name = line[..<colon].lowercased()
        let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: " \t\r\n")
        if let previous = headers[name] {
            headers[name] = previous + ", " + value
        } else {
            headers[name] = value
        }
    }

    fileprivate func allows(_ address: IPAddress) -> Bool {
        if request.pinnedAddresses.isEmpty { return true }
        if request.pinnedAddresses.contains(address) { return true }
        refusedUnpinnedAddress = address.description
        return false
    }

    /// The connection is ready (new or reused) and the request is about to go out.
    fileprivate func connectionReady(_ addressPair: String) {
        if !openedSockets.isEmpty {
            // Our own handshake: curl has the chain now, before any other transfer can use the connection.
            var certificate = request.wantCertificate ? CertificateChainText(handle: handle)?.leafFacts() : nil
            certificate?.trusted = request.verifyPeer
            connectionCertificate = certificate
            connections.opened(addressPair, sockets: openedSockets, certificate: certificate)
        } else if request.wantCertificate {
            connectionCertificate = connections.certificate(for: addressPair)
        }
    }

    var errorMessage: String {
        let text = String(cString: errorBuffer)
        return text
    }
}

/// Settings every transfer shares, derived once from the configuration.
struct TransferSettings: Sendable {
    /// With `caPath`: only the extra CA (or nil). Without: the bundle to use (or nil for curl's default).
    var caFile: String?
    /// An OpenSSL hashed directory of system roots.
    var caPath: String?
    var bodyLimit: Int
    var measureLimit: Int
    var connectTimeoutMilliseconds: Int
    var totalTimeoutMilliseconds: Int
}

private func transfer(_ pointer: UnsafeMutableRawPointer?) -> CurlTransfer? {
    guard let pointer else { return nil }
    return Unmanaged<CurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
}

private let writeCallback: curl_write_callback = { data, size, count, user in
    guard let transfer = transfer(user), let data else { return 0 }
    let length = size * count
    let accepted = transfer.receive(UnsafeRawBufferPointer(start: data, count: length))
    return accepted ? length : 0
}

private let headerCallback: curl_write_callback = { data, size, count, user in
    guard let transfer = transfer(user), let data else { return 0 }
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: data, count: length)
    transfer.receiveHeader(String(decoding: bytes, as: UTF8.self))
    return length
}

private let openSocketCallback: curl_opensocket_callback = { user, _, address in
    guard let transfer = transfer(user), let address else { return CURL_SOCKET_BAD }
    let family = address.pointee.family
    let peer: IPAddress? = withUnsafeMutablePointer(to: &address.pointee.addr) { sa in
        switch family {
        case AF_INET:
            return sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .v4(UInt32(bigEndian: $0.pointee.sin_addr.s_addr)) }
        case AF_INET6:
            return sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                var a = p.pointee.sin6_addr
                return .v6(withUnsafeBytes(of: &a) { Array($0) })
            }
        default:
            return nil
        }
    }
    guard let peer, transfer.allows(peer) else { return CURL_SOCKET_BAD }
    let fd = socket(family, address.pointee.socktype, address.pointee.protocol)
    if fd >= 0 { transfer.openedSockets.append(fd) }
    return fd
}

private let closeSocketCallback: curl_closesocket_callback = { user, socket in
    if let user { Unmanaged<ConnectionCertificates>.fromOpaque(user).takeUnretainedValue().closing(socket) }
    return close(socket)
}

private let prerequestCallback: curl_prereq_callback = { user, peer, local, peerPort, localPort in
    guard let transfer = transfer(user), let peer, let local, localPort > 0 else { return CURL_PREREQFUNC_OK }
    transfer.connectionReady(ConnectionCertificates.addressPair(local: String(cString: local), localPort: Int(localPort),
                                                                peer: String(cString: peer), peerPort: Int(peerPort)))
    return CURL_PREREQFUNC_OK
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let drop = Set(set.unicodeScalars)
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !drop.contains($0) }),
              let end = scalars.lastIndex(where: { !drop.contains($0) }) else { return "" }
        return String(scalars[start...end])
    }
}
