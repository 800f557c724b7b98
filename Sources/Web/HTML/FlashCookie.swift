import Store
import TextEncoding

/// A one-shot banner carried from a change to the page after its redirect ("Deleted example.com").
/// It travels in a cookie the server signs, never in the address: a link like `/?deleted=ANY TEXT`
/// cannot put words of a stranger's choosing on our page. It names the page it is for, so another
/// page opened meanwhile (in another tab) neither shows nor clears it; shown once, then cleared.
struct FlashCookie: Sendable {
    static let name = "aasa_flash"
    /// Long enough to survive the redirect, short enough that a lost banner does not turn up later.
    static let lifetime = 60
    /// The signing key lives as long as the process: a banner set before a restart is dropped, not forged.
    let key: [UInt8]

    init(key: [UInt8] = Crypto.randomBytes(32)) { self.key = key }

    /// The Set-Cookie header that carries `flash` to the page at `path`.
    func set(_ flash: Flash, for path: String, secure: Bool) -> String {
        let body = flash.kind.rawValue + "." + Hex.encode(Array(path.utf8)) + "." + Hex.encode(Array(flash.message.utf8))
        return SessionCookie.set(name: Self.name, value: body + "." + mac(body), maxAge: Self.lifetime, secure: secure)
    }

    /// The banner the request's cookie carries for this page, when we signed it.
    func read(_ request: WebRequest) -> Flash? {
        guard let value = request.cookies[Self.name], value.utf8.count <= 4096 else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, let kind = Flash.Kind(rawValue: String(parts[0])),
              let path = Hex.decode(parts[1]), let message = Hex.decode(parts[2]) else { return nil }
        let body = String(value[..<parts[3].startIndex].dropLast())
        guard Crypto.constantTimeEqual(Array(mac(body).utf8), Array(parts[3].utf8)),
              String(decoding: path, as: UTF8.self) == request.path else { return nil }
        return Flash(kind, String(decoding: message, as: UTF8.self))
    }

    func clear(secure: Bool) -> String { SessionCookie.clear(name: Self.name, secure: secure) }

    private func mac(_ body: String) -> String { Hex.encode(SHA256.hmac(key: key, message: Array(body.utf8))) }
}

extension RequestContext {
    /// The banner a change left for this page, if any (see `FlashCookie`).
    var flash: Flash? { services.flashCookie.read(request) }

    /// After a change: to `location`, with `flash` shown once there.
    func redirect(_ location: String, flash: Flash) -> WebResponse {
        let path = String(location.prefix { $0 != "?" && $0 != "#" })
        return WebResponse.seeOther(location).with(header: "Set-Cookie", services.flashCookie.set(flash, for: path, secure: isSecure))
    }

    /// Clears the banner cookie once its page has shown `flash`.
    func showing(_ flash: Flash?, _ response: WebResponse) -> WebResponse {
        guard flash != nil else { return response }
        return response.with(header: "Set-Cookie", services.flashCookie.clear(secure: isSecure))
    }
}
