import CSodium
import Foundation
import Store

/// A channel's signing secret in the Standard Webhooks form `whsec_<base64>`: shown to the user
/// once, stored for signing. The HMAC key is the base64-decoded part, not the text.
public struct WebhookSecret: Sendable, Equatable {
    public static let prefix = "whsec_"
    public let text: String
    let key: [UInt8]

    /// 32 random bytes from libsodium (the scheme asks for 24 to 64).
    public static func generate() -> WebhookSecret {
        var bytes = [UInt8](repeating: 0, count: 32)
        _ = sodium_init()  // idempotent and thread-safe; needed before randombytes_buf
        randombytes_buf(&bytes, bytes.count)
        return WebhookSecret(key: bytes)
    }

    init(key: [UInt8]) {
        self.key = key
        text = Self.prefix + Data(key).base64EncodedString()
    }

    /// Parses a stored or pasted secret; nil when it is not `whsec_` + base64 of 24+ bytes.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix),
              let data = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))), data.count >= 24
        else { return nil }
        self.text = text
        key = Array(data)
    }

    /// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
    public func signature(id: String, timestamp: Int, body: [UInt8]) -> String {
        "v1," + Data(SHA256.hmac(key: key, message: Array("\(id).\(timestamp).".utf8) + body)).base64EncodedString()
    }
}
