import CCurl
import Foundation
import Outbound

/// A blocking client for a server's `/api/v1`, for the commands run with `--server`. Every request
/// goes through libcurl like every other connection the product makes (`BlockingTransfer`), pinned
/// to the addresses the name resolved to, with no proxy and no redirect followed (a redirect would
/// carry the token elsewhere).
///
/// Which addresses: any. The outbound policy keeps typed-in domains and webhook URLs off this
/// machine and the LAN (SSRF); here the operator names the server on their own command line, and a
/// monitor on a private network or on this machine is the usual case. What is refused instead is
/// sending the token in clear over a network: `http://` only to a name whose every address is on
/// this machine (loopback), `https://` anywhere else.
struct APIClient {
    /// The server's URL without a trailing slash; a path prefix (a server behind a proxy under
    /// `/monitor`) is kept.
    let base: String
    let url: OutboundURL
    let token: String
    let caFile: String?

    struct Answer {
        var status: Int
        var body: [UInt8]
    }

    /// An answer larger than this is refused rather than cut: `status` of a million domains is about 300 MB.
    static let answerLimit = 1 << 30
    /// The largest body the server's HTTP layer takes (`HTTPLimits.maxBodyBytes`).
    static let requestLimit = 1 << 20

    init(server: String, token: String, caFile: String?) throws(RemoteError) {
        let url: OutboundURL
        do { url = try OutboundURL(server) } catch { throw .usage("--server \(server) is \(error.description)") }
        guard url.scheme == "https" || url.scheme == "http" else {
            throw .usage("--server \(server): give an https:// URL (http:// only to this machine)")
        }
        guard !url.hasCredentials else {
            throw .usage("--server \(server) holds a user name or password: give the URL alone and the token by --token-file or \(ServerOptions.tokenVariable)")
        }
        guard !server.contains("?"), !server.contains("#") else {
            throw .usage("--server \(server): give the server's address without a query or fragment")
        }
        var base = url.url
        while base.hasSuffix("/") { base.removeLast() }
        (self.base, self.url, self.token, self.caFile) = (base, url, token, caFile)
    }

    /// One request: `path` under `/api/v1`, a JSON body for a POST. A 401 or 403, a 5xx and a
    /// failure to connect are thrown as what they mean; any other status is the caller's to read.
    func send(_ method: String, _ path: String, json body: [UInt8]? = nil) throws(RemoteError) -> Answer {
        // The server's HTTP layer refuses a larger body before reading it, and may close the
        // connection while curl is still sending: say it here, in words, rather than as a broken pipe.
        if let body, body.count > Self.requestLimit {
            throw .refused(status: 413, message: "the request is \(body.count >> 10) KB, more than the \(Self.requestLimit >> 20) MB a server takes; split the file")
        }
        let pin = try pinned()
        let transfer: BlockingTransfer
        do {
            let target = try OutboundURL(base + "/api/v1" + path)
            transfer = try BlockingTransfer(target, pinnedTo: pin, responseLimit: Self.answerLimit)
            try configure(transfer, method: method, body: body)
            try transfer.perform()
        } catch let error as CurlError {
            throw Self.failure(error, server: base)
        } catch {
            throw .usage("--server \(base): \(error)")
        }
        guard transfer.responseBody.count < Self.answerLimit else {
            throw .unreadableAnswer("it is larger than \(Self.answerLimit >> 20) MB")
        }
        let answer = Answer(status: transfer.responseCode, body: transfer.responseBody)
        switch answer.status {
        case 401: throw .unauthorized
        case 403: throw .readOnlyToken
        case 500...: throw .serverFailed(status: answer.status, message: Self.errorMessage(answer.body))
        default: return answer
        }
    }

    /// A JSON answer of `status` decoded as `T`; another status with the server's error is `.refused`.
    func decode<T: Decodable>(_ type: T.Type, from answer: Answer, expecting status: Int) throws(RemoteError) -> T {
        guard answer.status == status else {
            if answer.status == 413 { throw .refused(status: 413, message: "the request is larger than the server takes (1 MB); split the file") }
            throw .refused(status: answer.status, message: Self.errorMessage(answer.body))
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(answer.body))
        } catch {
            throw .unreadableAnswer("expected \(T.self) as JSON (is \(base) an aasa-monitor server of this version?)")
        }
    }

    /// The request as JSON: the members encoded as the API spells them (snake_case keys are written
    /// out in the encodable types).
    static func json(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Plain strings, numbers and arrays: encoding cannot fail.
        return (try? encoder.encode(value)).map { Array($0) } ?? Array("{}".utf8)
    }

    // MARK: - The connection

    /// The server's addresses, every one admitted (the operator named the server), http only to this machine.
    private func pinned() throws(RemoteError) -> PinnedConnection {
        let pin: PinnedConnection
        switch url.pin(policy: OutboundPolicy(allowPrivateAddresses: true), resolver: SystemResolver()) {
        case .success(let found): pin = found
        case .failure(let refusal): throw .unreachable("cannot reach \(base): \(refusal)")
        }
        if url.scheme == "http", let remote = pin.addresses.first(where: { !Self.isLoopback($0) }) {
            throw .usage("--server \(base): http:// would send the token in clear to \(remote); use https:// (http:// is taken only for this machine)")
        }
        return pin
    }

    static func isLoopback(_ address: IPAddress) -> Bool {
        switch address {
        case .v4(let a): a >> 24 == 127
        case .v6(let b): b == [UInt8](repeating: 0, count: 15) + [1]
        }
    }

    private func configure(_ transfer: BlockingTransfer, method: String, body: [UInt8]?) throws(CurlError) {
        let easy = transfer.easy
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        // A redirect would carry the token to wherever it points: never follow one.
        try easy.set(CURLOPT_FOLLOWLOCATION, 0)
        try easy.set(CURLOPT_CONNECTTIMEOUT, 15)
        // An import of many hosts or an apply takes a while on the server: a stalled connection ends,
        // a slow answer does not (nothing at all for ten minutes).
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try easy.set(CURLOPT_LOW_SPEED_TIME, 600)
        if let caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        var headers = ["Authorization: Bearer \(token)", "Accept: application/json", "User-Agent: aasa-monitor-cli", "Expect:"]
        if let body {
            headers.append("Content-Type: application/json")
            try transfer.setPostBody(body)
        }
        try easy.set(CURLOPT_HTTPHEADER, list: headers)
        if method != "GET" && method != "POST" { try easy.set(CURLOPT_CUSTOMREQUEST, method) }
    }

    /// What went wrong on the way, by curl's code: the server's address in the words, what to check next.
    static func failure(_ error: CurlError, server: String) -> RemoteError {
        switch UInt32(clamping: error.code) {
        case CURLE_COULDNT_CONNECT.rawValue:
            return .unreachable("cannot connect to \(server): \(error.message) (is aasa-monitor serve running there, on that port?)")
        case CURLE_OPERATION_TIMEDOUT.rawValue:
            return .unreachable("\(server) did not answer in time: \(error.message)")
        case CURLE_SSL_CONNECT_ERROR.rawValue:
            return .unreachable("the TLS handshake with \(server) failed: \(error.message) (is it an https:// server? a plain HTTP one is http://)")
        case CURLE_PEER_FAILED_VERIFICATION.rawValue, CURLE_SSL_CACERT_BADFILE.rawValue:
            return .unreachable("the certificate of \(server) is not trusted: \(error.message) (a private CA: --server-ca-file PEM)")
        case CURLE_GOT_NOTHING.rawValue, CURLE_RECV_ERROR.rawValue:
            return .unreachable("\(server) closed the connection without an answer: \(error.message)")
        default:
            return .unreachable("cannot reach \(server): \(error.message)")
        }
    }

    /// The message of the API's error body `{"error": {"message"}}`, else the start of the body.
    static func errorMessage(_ body: [UInt8]) -> String {
        struct ErrorBody: Decodable { struct Inner: Decodable { let message: String }; let error: Inner }
        if let decoded = try? JSONDecoder().decode(ErrorBody.self, from: Data(body)) { return decoded.error.message }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return text.isEmpty ? "no message" : text
    }
}
