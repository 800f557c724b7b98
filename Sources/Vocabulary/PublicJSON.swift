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
