import Foundation

/// One input line of `match --batch`, for either platform: the JSON object, where its members lie in
/// the line's bytes, and its id as written. Both batches read their lines, their string members and
/// the association file they carry by these rules, and answer a line they cannot use the same way.
struct BatchLine {
    /// A line that cannot be answered: the error line it gets instead.
    struct Refusal: Error {
        let answer: String
    }

    /// How an association file may be inlined in a line (its text in a JSON string is always taken).
    enum InlineFile {
        /// A JSON object (an apple-app-site-association).
        case object
        /// Any JSON value: a file that is not a statement list is the reader's to judge (assetlinks.json).
        case anyValue
    }

    let bytes: [UInt8]
    let object: [String: Any]
    let spans: [String: Range<Int>]?
    /// The id exactly as the line wrote it (any JSON value), or null.
    let id: String

    init(_ bytes: [UInt8]) throws(Refusal) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw Refusal(answer: Self.error(id: nil, "the line is not valid JSON"))
        }
        guard let object = parsed as? [String: Any] else {
            throw Refusal(answer: Self.error(id: nil, "the line is not a JSON object"))
        }
        self.bytes = bytes
        self.object = object
        spans = JSONMemberSpans.spans(bytes)
        id = Self.rawID(object, spans: spans, line: bytes)
    }

    /// The string under `key`, or under the first of `aliases` present (spellings of earlier versions).
    func string(_ key: String, aliases: String...) throws(Refusal) -> String {
        guard let value = ([key] + aliases).lazy.compactMap({ object[$0] }).first as? String else {
            throw refusal("\"\(key)\" is missing or not a string")
        }
        return value
    }

    /// The bytes of the association file under `key`: its text when given as a JSON string, else its
    /// JSON as the line wrote it, so duplicate keys, key order and the like are seen as the file had them.
    func file(_ key: String, inline: InlineFile) throws(Refusal) -> [UInt8] {
        switch object[key] {
        case let text as String:
            return Array(text.utf8)
        case nil, is NSNull:
            throw refusal("\"\(key)\" is missing")
        case let value?:
            if case .object = inline, !(value is [String: Any]) { throw refusal("\"\(key)\" must be the file's JSON object") }
            if let span = spans?[key] { return Array(bytes[span]) }
            guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else {
                throw refusal("\"\(key)\" could not be read")
            }
            return Array(data)
        }
    }

    func refusal(_ message: String) -> Refusal {
        Refusal(answer: Self.error(id: id, message))
    }

    static func rawID(_ object: [String: Any], spans: [String: Range<Int>]?, line: [UInt8]) -> String {
        if let span = spans?["id"] { return String(decoding: line[span], as: UTF8.self) }
        guard let value = object["id"],
              let data = try? JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed]) else {
            return "null"
        }
        // Encoded inside an array so that scalars are accepted; strip the brackets.
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    static func error(id: String?, _ message: String) -> String {
        "{\"id\":\(id ?? "null"),\"error\":\(jsonString(message))}"
    }

    static func jsonString(_ text: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [text]) else { return "\"\"" }
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}

/// Association files read so far, by their bytes: a batch usually asks many URLs of few files. Emptied
/// when full, so a batch of ever new files holds at most `limit` readings.
struct BatchFileCache<Reading> {
    private var readings: [[UInt8]: Reading?] = [:]
    private let limit = 512
    private let read: ([UInt8]) -> Reading?

    init(read: @escaping ([UInt8]) -> Reading?) {
        self.read = read
    }

    /// The file's reading; nil for a file that cannot be read (remembered as such too).
    mutating func reading(_ bytes: [UInt8]) -> Reading? {
        if let cached = readings[bytes] { return cached }
        if readings.count >= limit { readings.removeAll(keepingCapacity: true) }
        let reading = read(bytes)
        readings[bytes] = reading
        return reading
    }
}
