import Foundation

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
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
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
