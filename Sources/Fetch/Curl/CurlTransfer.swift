import CCurl
import CShim
import Glibc
import Outbound
import Vocabulary

/// One libcurl easy handle and what it has received so far. Lives on the transfer loop's thread
/// from `start` to `finish`; curl's callbacks reach it through an unmanaged pointer.
final class CurlTransfer {
    let request: TransferRequest
    /// The handle, its checked options, its pin and its socket guard.
    let easy: CurlEasy
    var handle: UnsafeMutableRawPointer { easy.handle }
    let completion: @Sendable (TransportFacts) -> Void
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    private(set) var decodedSize = 0
    private(set) var truncated = false
    private(set) var abortedTooLarge = false
    /// The certificate of the connection this transfer ran on, as its handshake showed it (this
    /// transfer's, or an earlier one's on a reused connection).
    private(set) var connectionCertificate: TLSFacts?
    private let connections: ConnectionCertificates
    /// Told when curl has a connection for this transfer (its own or a reused one), just before the
    /// request goes out: the loop then starts the transfers to the same origin that wait to ride on it.
    private let connected: () -> Void
    private let bodyLimit: Int
    private let measureLimit: Int

    init(request: TransferRequest, settings: TransferSettings, connections: ConnectionCertificates,
         sessions: UnsafeMutableRawPointer? = nil, connected: @escaping () -> Void,
         completion: @escaping @Sendable (TransportFacts) -> Void) throws(CurlError) {
        self.easy = try CurlEasy()
        self.request = request
        self.connections = connections
        self.connected = connected
        self.completion = completion
        self.bodyLimit = settings.bodyLimit
        self.measureLimit = settings.measureLimit
        try configure(settings)
        // The host's share of TLS sessions (TransferLoop.sessionShare), used only on the loop's thread.
        if let sessions { try set(CURLOPT_SHARE, pointer: sessions) }
    }

    private func set(_ option: CURLoption, _ value: Int) throws(CurlError) { try easy.set(option, value) }
    private func set(_ option: CURLoption, _ value: String) throws(CurlError) { try easy.set(option, value) }
    private func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws(CurlError) { try easy.set(option, pointer: pointer) }

    private func configure(_ settings: TransferSettings) throws(CurlError) {
        let me = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_PRIVATE, pointer: me)
        // curl never follows a redirect: a 3xx is the finding. The one route that follows (a device's
        // direct route, `Fetcher.followingRedirects`) does it hop by hop, judging and pinning each host.
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_PROTOCOLS_STR, "https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "https")
        try set(CURLOPT_USERAGENT, request.userAgent)
        // "" = every encoding this libcurl decodes; the 128 KB limit is on the decoded body.
        try set(CURLOPT_ACCEPT_ENCODING, "")
        try set(CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMilliseconds)
        try set(CURLOPT_TIMEOUT_MS, min(request.totalTimeoutMilliseconds ?? .max, settings.totalTimeoutMilliseconds))
        if let caPath = settings.caPath {
            try set(CURLOPT_CAPATH, caPath)
            // Only the extra CA as a file; NULL stops curl from parsing its default bundle per handle.
            if let caFile = settings.caFile { try set(CURLOPT_CAINFO, caFile) } else { try set(CURLOPT_CAINFO, pointer: nil) }
        } else if let caFile = settings.caFile {
            try set(CURLOPT_CAINFO, caFile)
        }
        try set(CURLOPT_SSL_VERIFYPEER, request.verifyPeer ? 1 : 0)
        try set(CURLOPT_SSL_VERIFYHOST, request.verifyPeer ? 2 : 0)
        if request.wantCertificate { try set(CURLOPT_CERTINFO, 1) }
        if request.freshConnection {
            try set(CURLOPT_FRESH_CONNECT, 1)
            // A resumed session would skip the certificate: a full handshake is what was asked for.
            try set(CURLOPT_SSL_SESSIONID_CACHE, 0)
        }
        if let etag = request.ifNoneMatch { try easy.set(CURLOPT_HTTPHEADER, list: ["If-None-Match: \(etag)"]) }
        // The requests of one check start together: wait to share one HTTP/2 connection rather
        // than open one each.
        try set(CURLOPT_PIPEWAIT, 1)

        // Pin: curl must connect to the addresses the policy judged, not resolve the name again
        // (DNS rebinding); the handle's socket guard enforces the same list.
        try easy.pin(PinnedConnection(host: request.host, port: request.port, connectTo: request.connectTarget,
                                      addresses: request.pinnedAddresses))
        // The connection outlives this transfer, so its close reaches the loop's table, not us.
        try set(CURLOPT_CLOSESOCKETFUNCTION, pointer: unsafeBitCast(closeSocketCallback, to: UnsafeRawPointer.self))
        try set(CURLOPT_CLOSESOCKETDATA, pointer: UnsafeRawPointer(Unmanaged.passUnretained(connections).toOpaque()))
        try set(CURLOPT_PREREQFUNCTION, pointer: unsafeBitCast(prerequestCallback, to: UnsafeRawPointer.self))
        try set(CURLOPT_PREREQDATA, pointer: me)
        // Reused connections report the certificate of their handshake: renew them hourly so a
        // renewed certificate (say, on the CDN connection every check shares) is seen within the hour.
        try set(CURLOPT_MAXLIFETIME_CONN, 3600)

        try set(CURLOPT_WRITEFUNCTION, pointer: unsafeBitCast(writeCallback, to: UnsafeRawPointer.self))
        try set(CURLOPT_WRITEDATA, pointer: me)
        try set(CURLOPT_HEADERFUNCTION, pointer: unsafeBitCast(headerCallback, to: UnsafeRawPointer.self))
        try set(CURLOPT_HEADERDATA, pointer: me)
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

    /// The connection is ready (new or reused) and the request is about to go out.
    fileprivate func connectionReady(_ addressPair: String) {
        if !easy.openedSockets.isEmpty {
            // Our own handshake: curl has the chain now, before any other transfer can use the connection.
            var certificate = request.wantCertificate ? CertificateChainText(handle: handle)?.leafFacts() : nil
            certificate?.trusted = request.verifyPeer
            connectionCertificate = certificate
            connections.opened(addressPair, sockets: easy.openedSockets, certificate: certificate)
        } else if request.wantCertificate {
            connectionCertificate = connections.certificate(for: addressPair)
        }
        connected()
    }

    var errorMessage: String { easy.errorMessage }
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
