import AASA
import Foundation

/// `match --batch`: one JSON object per input line,
/// `{"id": …, "aasa": {…}, "domain": "example.com", "app_id": "TEAMID.bundle", "url": "…"}`
/// (`appId` and `appID`, the spellings of earlier versions, are accepted for `app_id`), one result line per
/// input line, in input order: `{"id": …, "decision": "match" | "exclude" | "no_match"}`, or
/// `{"id": …, "error": "…"}` for a line it cannot use. A bad line never stops the run.
struct BatchMatch {
    /// Files compiled so far, by their bytes: a batch usually asks many URLs of few files.
    private var compiled: [[UInt8]: CompiledDocument?] = [:]
    private static let cacheLimit = 512

    mutating func answer(_ line: [UInt8]) -> String {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                return Self.error(id: nil, "the line is not a JSON object")
            }
            object = parsed
        } catch {
            return Self.error(id: nil, "the line is not valid JSON")
        }
        let spans = JSONMemberSpans.spans(line)
        let id = Self.rawID(object, spans: spans, line: line)
        // `app_id` like every public JSON; the camelCase spellings of earlier versions stay accepted.
        guard let appID = (object["app_id"] ?? object["appId"] ?? object["appID"]) as? String else {
            return Self.error(id: id, "\"app_id\" is missing or not a string")
        }
        guard let url = object["url"] as? String else { return Self.error(id: id, "\"url\" is missing or not a string") }
        let domain = object["domain"] as? String
        if object["domain"] != nil, !(object["domain"] is NSNull), domain == nil {
            return Self.error(id: id, "\"domain\" is not a string")
        }
        let bytes: [UInt8]
        switch object["aasa"] {
        case let text as String:
            // A file given as a JSON string holding its text.
            bytes = Array(text.utf8)
        case is [String: Any]:
            if let span = spans?["aasa"] {
                bytes = Array(line[span])
            } else if let value = object["aasa"], let data = try? JSONSerialization.data(withJSONObject: value) {
                bytes = Array(data)
            } else {
                return Self.error(id: id, "\"aasa\" could not be read")
            }
        case nil, is NSNull:
            return Self.error(id: id, "\"aasa\" is missing")
        default:
            return Self.error(id: id, "\"aasa\" must be the file's JSON object")
        }
        guard let document = compiledDocument(bytes) else {
            return Self.error(id: id, "\"aasa\" is not a usable apple-app-site-association object")
        }
        let parts = URLParts(parsing: url)
        let decision: MatchDecision = if let domain, !parts.isCovered(byFileOf: domain) {
            // A device never consults this domain's file for another host's URL.
            .noMatch
        } else {
            document.decide(parts: parts, appID: appID)
        }
        return "{\"id\":\(id),\"decision\":\"\(decision.name)\"}"
    }

    private mutating func compiledDocument(_ bytes: [UInt8]) -> CompiledDocument? {
        if let cached = compiled[bytes] { return cached }
        if compiled.count >= Self.cacheLimit { compiled.removeAll(keepingCapacity: true) }
        let document = AASAParser.parse(bytes).document.map(CompiledDocument.init)
        compiled[bytes] = document
        return document
    }

    /// The id exactly as the line wrote it (any JSON value), or null.
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

    static func run() {
        var batch = BatchMatch()
        JSONLines.run { batch.answer($0) }
    }
}

/// The line loop of `match --batch`: reads standard input line by line and answers each, buffering
/// output so a long batch costs one write per 64 KB rather than one per line.
enum JSONLines {
    static func run(_ answer: ([UInt8]) -> String) {
        var output: TerminalText = ""
        var buffered = 0
        var pending: [UInt8] = []
        func flush() {
            if buffered > 0 {
                Terminal.print(output, terminator: "")
                output = ""
                buffered = 0
            }
        }
        func handle(_ line: ArraySlice<UInt8>) {
            var bytes = Array(line)
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard bytes.contains(where: { ![0x20, 0x09].contains($0) }) else { return }
            // Answers are JSON, made terminal-safe like every other JSON output (an id echoed from
            // the input may hold C1 or bidi characters).
            let text = TerminalText(json: answer(bytes))
            output += text + "\n"
            buffered += text.rendered.utf8.count + 1
            if buffered >= 1 << 16 { flush() }
        }
        while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 16), !chunk.isEmpty {
            pending += chunk
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                handle(pending[start..<newline])
                start = newline + 1
            }
            pending.removeSubrange(..<start)
        }
        if !pending.isEmpty { handle(pending[...]) }
        flush()
    }
}
