import AASA
import Foundation

/// `match --batch`: one JSON object per input line,
/// `{"id": …, "aasa": {…}, "domain": "example.com", "app_id": "TEAMID.bundle", "url": "…"}`
/// (`appId` and `appID`, the spellings of earlier versions, are accepted for `app_id`), one result line per
/// input line, in input order: `{"id": …, "decision": "match" | "exclude" | "no_match"}`, or
/// `{"id": …, "error": "…"}` for a line it cannot use. A bad line never stops the run.
struct BatchMatch {
    private var documents = BatchFileCache { AASAParser.parse($0).document.map(CompiledDocument.init) }

    mutating func answer(_ text: [UInt8]) -> String {
        do throws(BatchLine.Refusal) {
            let line = try BatchLine(text)
            // `app_id` like every public JSON; the camelCase spellings of earlier versions stay accepted.
            let appID = try line.string("app_id", aliases: "appId", "appID")
            let url = try line.string("url")
            let domain = line.object["domain"] as? String
            if line.object["domain"] != nil, !(line.object["domain"] is NSNull), domain == nil {
                throw line.refusal("\"domain\" is not a string")
            }
            guard let document = documents.reading(try line.file("aasa", inline: .object)) else {
                throw line.refusal("\"aasa\" is not a usable apple-app-site-association object")
            }
            let parts = URLParts(parsing: url)
            let decision: MatchDecision = if let domain, !parts.isCovered(byFileOf: domain) {
                // A device never consults this domain's file for another host's URL.
                .noMatch
            } else {
                document.decide(parts: parts, appID: appID)
            }
            return "{\"id\":\(line.id),\"decision\":\"\(decision.name)\"}"
        } catch {
            return error.answer
        }
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
