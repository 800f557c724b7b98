import AssetLinks
import Foundation

/// `match --batch --android`: one JSON object per input line,
/// `{"id": …, "assetlinks": <the file as JSON, or its text>, "packageName": "…", "url": "…"}`, one result
/// line per input line, in input order: `{"id": …, "decision": "match" | "exclude" | "no_match" |
/// "rules_dropped"}` (Android 15+), or `{"id": …, "error": "…"}` for a line it cannot use. A package
/// the file does not verify is `no_match` with `"verified": false`. A bad line never stops the run.
struct AndroidBatchMatch {
    /// Files read so far, by their bytes: a batch usually asks many URLs of few files.
    private var matchers: [[UInt8]: AppLinkMatcher?] = [:]
    private static let cacheLimit = 512

    mutating func answer(_ line: [UInt8]) -> String {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                return BatchMatch.error(id: nil, "the line is not a JSON object")
            }
            object = parsed
        } catch {
            return BatchMatch.error(id: nil, "the line is not valid JSON")
        }
        let spans = JSONMemberSpans.spans(line)
        let id = BatchMatch.rawID(object, spans: spans, line: line)
        guard let package = (object["packageName"] ?? object["package_name"]) as? String else {
            return BatchMatch.error(id: id, "\"packageName\" is missing or not a string")
        }
        guard let url = object["url"] as? String else { return BatchMatch.error(id: id, "\"url\" is missing or not a string") }
        let bytes: [UInt8]
        switch object["assetlinks"] {
        case let text as String:
            // The file's text, for a file that is not JSON (or to keep its exact bytes).
            bytes = Array(text.utf8)
        case nil, is NSNull:
            return BatchMatch.error(id: id, "\"assetlinks\" is missing")
        default:
            // The file inlined as JSON: read its own bytes from the line, so duplicate keys and the
            // like are seen as the file had them.
            if let span = spans?["assetlinks"] {
                bytes = Array(line[span])
            } else if let value = object["assetlinks"],
                      let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
                bytes = Array(data)
            } else {
                return BatchMatch.error(id: id, "\"assetlinks\" could not be read")
            }
        }
        guard let matcher = matcher(bytes) else {
            return BatchMatch.error(id: id, "\"assetlinks\" is not a statement list Google would read (invalid JSON or not an array)")
        }
        let decision = matcher.decide(AndroidURL(url), packageName: package)
        switch decision {
        case .notVerified: return "{\"id\":\(id),\"decision\":\"no_match\",\"verified\":false}"
        default: return "{\"id\":\(id),\"decision\":\"\(decision.name)\"}"
        }
    }

    private mutating func matcher(_ bytes: [UInt8]) -> AppLinkMatcher? {
        if let cached = matchers[bytes] { return cached }
        if matchers.count >= Self.cacheLimit { matchers.removeAll(keepingCapacity: true) }
        let matcher = AssetLinksReader.read(bytes).file.map(AppLinkMatcher.init)
        matchers[bytes] = matcher
        return matcher
    }

    static func run() {
        var batch = AndroidBatchMatch()
        JSONLines.run { batch.answer($0) }
    }
}
