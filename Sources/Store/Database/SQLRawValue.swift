import Foundation
import Vocabulary

// Columns that hold a word of the vocabulary (a verdict, a service, a severity, a state) decode to
// that type directly, the way postgres-nio codes every `RawRepresentable`: one conformance per type
// below, no string-to-enum fallback at the call sites. A stored value this version does not know is
// an error that names the table and column — never silently another value.

extension SQLDecodable where Self: RawRepresentable, RawValue: SQLDecodable {
    public static func decode(sqlText text: String?, column: String) throws -> Self {
        let raw = try RawValue.decode(sqlText: text, column: column)
        guard let value = Self(rawValue: raw) else {
            throw DatabaseError.decoding(column: column, message: "\"\(raw)\" is not a \(Self.self) this version knows")
        }
        return value
    }
}

extension SQLEncodable where Self: RawRepresentable, RawValue: SQLEncodable {
    public var sqlValue: SQLValue { rawValue.sqlValue }
}

extension Verdict: SQLDecodable, SQLEncodable {}
extension DomainState: SQLDecodable, SQLEncodable {}
extension Service: SQLDecodable, SQLEncodable {}
extension AlertSeverity: SQLDecodable, SQLEncodable {}
extension AlertRule: SQLEncodable {}
extension Severity: SQLDecodable, SQLEncodable {}
extension Platform: SQLDecodable, SQLEncodable {}
extension WatchedPlatforms: SQLDecodable, SQLEncodable {}
extension AndroidURLExpectation: SQLDecodable, SQLEncodable {}

/// A check's expectation results (`checks.expectations`): written by the pipeline, read by the pages,
/// the API and the re-evaluation of a domain's state, all as this one type.
extension ExpectationResults: SQLJSONCodable {}
/// A check's per-location transport facts (`checks.transport`), one type for the pipeline that writes
/// them and the pages, API and charts that read them.
extension CheckTransport: SQLJSONCodable {}
/// A check's Android side (`checks.android`): assetlinks.json's verdict, findings, identities, Google's verdict.
extension AndroidResult: SQLJSONCodable {}

/// A value stored as JSON in a `jsonb` column, coded the way postgres-nio codes `Codable` values:
/// conform once, and rows decode the column into the type (and parameters encode it, cast with
/// `$n::jsonb`). Dates are ISO 8601 (whole seconds, UTC: what every stored row has used), so rows stay
/// readable in psql. A document that does not decode is an error naming the table and column.
public protocol SQLJSONCodable: Codable, SQLDecodable, SQLEncodable {}

extension SQLJSONCodable {
    public static func decode(sqlText text: String?, column: String) throws -> Self {
        let text = try nonNull(text, column)
        do {
            return try StoredJSON.decode(Self.self, from: text)
        } catch {
            throw DatabaseError.decoding(column: column, message: "is not a \(Self.self) as stored JSON: \(StoredJSON.describe(error))")
        }
    }

    public var sqlValue: SQLValue {
        // Encoding the stored types (strings, numbers, arrays, dates) cannot fail; a failure would be a
        // programming error, and writing NULL makes the NOT NULL columns refuse the row loudly.
        (try? StoredJSON.encode(self)).map(SQLValue.text) ?? .null
    }
}

/// The one JSON coding of stored values (jsonb columns, the outbox's event). Sorted keys keep equal
/// values byte-equal, which the comparison of checks and the tests rely on.
public enum StoredJSON {
    public static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return replacingNULEscapes(in: String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// PostgreSQL's jsonb refuses the escape `\u0000` (its text cannot hold U+0000: ERROR 22P05), so a
    /// served file with a NUL byte — its text lines in the reading, a string of its parsed document, a
    /// finding that quotes it — failed its check's whole transaction every time: the domain was never
    /// recorded, never alerted, and was checked again at each lease's end (the fault campaign's binary
    /// files, docs/benchmarks.md, Fault campaign). Each U+0000 in a string is stored as U+FFFD, which the readings
    /// already show for bytes that are not UTF-8; the served bytes themselves stay whole (`body`).
    /// An escaped backslash followed by the letters `u0000` is text, and stays.
    static func replacingNULEscapes(in json: String) -> String {
        guard json.contains("\\u0000") else { return json }
        let backslash = UInt8(ascii: "\\")
        let nul = Array("u0000".utf8), replacement = Array("ufffd".utf8)
        let bytes = Array(json.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == backslash, i + 1 < bytes.count else {
                out.append(bytes[i])
                i += 1
                continue
            }
            // An escape: a backslash and what it escapes, taken together so `\\` never starts another.
            if bytes[(i + 1)...].starts(with: nul) {
                out.append(backslash)
                out += replacement
                i += 1 + nul.count
            } else {
                out += [bytes[i], bytes[i + 1]]
                i += 2
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(text.utf8))
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "no \"\(key.stringValue)\" at \(path(context))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context))"
        default:
            return String(describing: error)
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        "/" + context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
    }
}
