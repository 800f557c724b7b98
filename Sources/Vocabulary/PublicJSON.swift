import Foundation
import Synchronization

/// One naming style for every JSON a person or a script reads — the API, every `--json` output,
/// webhook bodies: snake_case keys (`last_checked_at`, `exit_status`), the API's style since its
/// first version. Types keep Swift's camelCase property names; the encoder converts the keys of
/// every struct, nested ones included (findings, transport facts, diffs), so no output can drift
/// back to camelCase one type at a time.
///
/// Only struct keys change: values, and the keys of dictionaries (HTTP header names, app IDs,
/// service names, link names), are written as they are (swift-corelibs-foundation applies the key
/// strategy to coding keys only; `PublicJSONTests` holds it to that). Stored JSON (the database's
/// columns) does not use this encoder.
public enum PublicJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // Foundation's own snake_case, remembered per key name: `.convertToSnakeCase` re-scans every
        // key of every value it writes, a fifth of the CPU of the domain export (10,000 API objects).
        encoder.keyEncodingStrategy = .custom { path in
            guard let key = path.last else { return SnakeCaseKey("") }
            return key.intValue.map(SnakeCaseKey.init(intValue:)) ?? SnakeCaseKey(snakeCase(key.stringValue))
        }
        return encoder
    }

    /// `name` as `.convertToSnakeCase` writes it (`lastCheckedAt` → `last_checked_at`), asked of
    /// Foundation once per name so the spelling is exactly its own, then kept.
    static func snakeCase(_ name: String) -> String {
        if let known = snakeCaseNames.withLock({ $0[name] }) { return known }
        let converted = foundationSnakeCase(name)
        snakeCaseNames.withLock { $0[name] = converted }
        return converted
    }

    private static let snakeCaseNames = Mutex<[String: String]>([:])

    /// One object with the key `name` through an encoder with Foundation's strategy, read back.
    private static func foundationSnakeCase(_ name: String) -> String {
        struct Probe: Encodable {
            let name: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: SnakeCaseKey.self)
                try container.encodeNil(forKey: SnakeCaseKey(name))
            }
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        // A key and null always encode, and JSON we just wrote always parses: this cannot fail, and if
        // it ever did the name would be written as it is, which `PublicJSONTests` would catch.
        guard let bytes = try? encoder.encode(Probe(name: name)),
              let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any], let key = object.keys.first else {
            return name
        }
        return key
    }

    struct SnakeCaseKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
    }
}

extension PublicJSON {
    /// An optional written as `null` when it is absent, where a synthesized encoder would leave the
    /// key out, so a script can rely on every key being present. One wrapper instead of a
    /// hand-written `encode(to:)` per output type (status, validate, API errors).
    @propertyWrapper
    public struct NullWhenAbsent<Value: Encodable>: Encodable {
        public var wrappedValue: Value?

        public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
        }
    }
}

extension PublicJSON.NullWhenAbsent: Sendable where Value: Sendable {}
extension PublicJSON.NullWhenAbsent: Equatable where Value: Equatable {}
