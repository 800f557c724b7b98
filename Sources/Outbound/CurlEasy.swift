import CCurl
import CShim
import Glibc

/// The product's one libcurl easy handle: every connection the product makes goes through one
/// (crawler, CDN, webhooks, SMTP).
///
/// - Every `setopt` is checked: an option curl refuses is an error, never silently a default.
/// - Proxies are never taken from the environment (`http_proxy`, `https_proxy`, `all_proxy`): a proxy
///   would carry the request past the address the policy judged. Nothing configures one today; a
///   proxy would have to be an explicit setting of its own.
/// - Every socket passes a guard (curl's open-socket callback) that admits only the addresses given to
///   `pin`; a handle that was never pinned connects nowhere. So even a resolution path curl takes that
///   we did not foresee (a name the pin missed, a redirect, an alternative service) cannot reach an
///   address the policy did not judge.
///
/// Used by one thread at a time. Owns the lists and buffers curl reads during a transfer.
public final class CurlEasy {
    public let handle: UnsafeMutableRawPointer
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var admitted: [IPAddress] = []
    /// The address the socket guard refused, if it refused one.
    public private(set) var refusedAddress: IPAddress?
    /// Sockets opened for this handle (more than one when curl tries several addresses).
    public private(set) var openedSockets: [Int32] = []

    public init() throws(CurlError) {
        CurlGlobal.initializeOnce()
        guard let handle = curl_easy_init() else {
            throw CurlError(code: CURLE_FAILED_INIT, message: "curl_easy_init failed (out of memory)")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        // Threads: libcurl must not use SIGALRM for DNS timeouts.
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))
        // "" disables proxies, the environment's included; NOPROXY "*" is the second fence.
        try set(CURLOPT_PROXY, "")
        try set(CURLOPT_NOPROXY, "*")
        try set(CURLOPT_OPENSOCKETFUNCTION, pointer: unsafeBitCast(guardedSocket, to: UnsafeRawPointer.self))
        try set(CURLOPT_OPENSOCKETDATA, pointer: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
    }

    deinit {
        curl_easy_cleanup(handle)
        for list in lists { curl_slist_free_all(list) }
        errorBuffer.deallocate()
    }

    // MARK: - Options, each checked

    public func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(cshim_curl_setopt_long(handle, option, value), option)
    }

    /// curl copies string options (since 7.17), so a temporary is enough.
    public func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        let code = value.withCString { cshim_curl_setopt_ptr(handle, option, $0) }
        try check(code, option)
    }

    public func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws(CurlError) {
        try check(cshim_curl_setopt_ptr(handle, option, pointer), option)
    }

    public func set(_ option: CURLoption, offset value: Int64) throws(CurlError) {
        try check(cshim_curl_setopt_off(handle, option, curl_off_t(value)), option)
    }

    /// A string list (headers, recipients, pins) that curl reads during the transfer: it lives as long
    /// as this handle.
    public func set(_ option: CURLoption, list values: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for value in values {
            guard let next = curl_slist_append(list, value) else {
                if let list { curl_slist_free_all(list) }
                throw CurlError(code: CURLE_OUT_OF_MEMORY, message: "curl_slist_append failed")
            }
            list = next
        }
        guard let list else { return }
        lists.append(list)
        try set(option, pointer: UnsafeRawPointer(list))
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(CurlError) {
        guard code == CURLE_OK else {
            throw CurlError(code: code, message: "curl refused option \(option.rawValue): \(CurlError.text(code))")
        }
    }

    // MARK: - Pinning

    /// Sends the connection only to the addresses the policy judged: curl finds them in its DNS cache
    /// under the exact name it connects with (CURLOPT_RESOLVE; a connect-to rule's target when one
    /// applies), and the socket guard refuses any other address.
    public func pin(_ pin: PinnedConnection) throws(CurlError) {
        if let connectTo = pin.connectTo {
            let hostField = connectTo.host.contains(":") ? "[\(connectTo.host)]" : connectTo.host
            try set(CURLOPT_CONNECT_TO, list: ["\(pin.host):\(pin.port):\(hostField):\(connectTo.port)"])
        }
        let target = pin.connectedName
        if IPAddress(target.host) == nil, !pin.addresses.isEmpty {
            let addresses = pin.addresses.map(\.curlLiteral).joined(separator: ",")
            // "+": an entry that ages out of curl's DNS cache (CURLOPT_DNS_CACHE_TIMEOUT, 60 s) like a
            // resolved one. Without it the entry is permanent, and the fetcher's one multi handle kept
            // one per distinct host name it ever checked: memory that grew with the number of domains.
            // Each transfer loads its pin again as it starts, so the entry is fresh when curl connects.
            try set(CURLOPT_RESOLVE, list: ["+\(target.host):\(target.port):\(addresses)"])
        }
        admitted = pin.addresses
    }

    fileprivate func admits(_ address: IPAddress) -> Bool {
        if admitted.contains(address) { return true }
        refusedAddress = address
        return false
    }

    fileprivate func opened(_ socket: Int32) { openedSockets.append(socket) }

    // MARK: - Results

    /// curl's own words for the last failure (empty when it gave none).
    public var errorMessage: String { String(cString: errorBuffer) }

    /// The failure of a transfer that ended with `code`, in curl's words; a refusal by the socket
    /// guard says which address and why.
    public func failure(_ code: CURLcode) -> CurlError {
        if let refused = refusedAddress {
            return CurlError(code: code, message: "refused to connect to \(refused): not one of the addresses the outbound policy checked")
        }
        let detail = errorMessage
        return CurlError(code: code, message: detail.isEmpty ? CurlError.text(code) : detail)
    }

    /// HTTP status, or the last SMTP reply code; 0 when there was none.
    public var responseCode: Int {
        var code = 0
        _ = cshim_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// Clears what the last transfer left (for a handle that runs again).
    func resetForTransfer() {
        errorBuffer[0] = 0
        refusedAddress = nil
    }
}

/// The socket guard: curl asks us for every socket it opens, with the address it will connect to.
private let guardedSocket: curl_opensocket_callback = { user, _, address in
    guard let user, let address else { return CURL_SOCKET_BAD }
    let easy = Unmanaged<CurlEasy>.fromOpaque(user).takeUnretainedValue()
    let family = address.pointee.family
    let peer = withUnsafeMutablePointer(to: &address.pointee.addr) { sa in
        sa.withMemoryRebound(to: sockaddr.self, capacity: 1) { IPAddress($0, family: family) }
    }
    guard let peer, easy.admits(peer) else { return CURL_SOCKET_BAD }
    let fd = socket(family, address.pointee.socktype, address.pointee.protocol)
    if fd >= 0 { easy.opened(fd) }
    return fd
}
