import Foundation
import Vocabulary

/// JSON bodies of the API: values encoded with sorted keys; errors as `{"error": {"message", "field"}}`.
public enum APIResponses {
    static let encoder: JSONEncoder = {
        let e = PublicJSON.encoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        return e
    }()

    public static func json<T: Encodable>(_ value: T, status: Int = 200) -> WebResponse {
        do {
            return .json(htmlSafe(Array(try encoder.encode(value))), status: status)
        } catch {
            return self.error(status: 500, message: "The response could not be encoded.")
        }
    }

    /// Writes `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026`: the same JSON, but crawled or typed
    /// markup (a finding's message, a domain's reason) never appears literally in a body a browser
    /// might sniff or a page might inline. Safe byte by byte: in JSON these can occur only inside
    /// strings, and no byte of a multi-byte UTF-8 sequence is ASCII.
    static func htmlSafe(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") }) else {
            return bytes
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 64)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "<"): out += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): out += Array("\\u003e".utf8)
            case UInt8(ascii: "&"): out += Array("\\u0026".utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    public static func error(status: Int, message: String, field: String? = nil) -> WebResponse {
        struct Body: Encodable {
            struct Inner: Encodable {
                let message: String
                // null rather than absent, so clients can rely on the key
                @PublicJSON.NullWhenAbsent var field: String?
            }
            let error: Inner
        }
        let bytes = (try? encoder.encode(Body(error: .init(message: message, field: field)))).map { Array($0) } ?? Array("{\"error\":{\"message\":\"error\",\"field\":null}}".utf8)
        return .json(Array(bytes), status: status)
    }
}
