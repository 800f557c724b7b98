import AssetLinks
import Foundation

/// `match --batch --android`: one JSON object per input line,
/// `{"id": …, "assetlinks": <the file as JSON, or its text>, "packageName": "…", "url": "…"}`, one result
/// line per input line, in input order: `{"id": …, "decision": "match" | "exclude" | "no_match" |
/// "rules_dropped"}` (Android 15+), or `{"id": …, "error": "…"}` for a line it cannot use. A package
/// the file does not verify is `no_match` with `"verified": false`. A bad line never stops the run.
struct AndroidBatchMatch {
    private var matchers = BatchFileCache { AssetLinksReader.read($0).file.map(AppLinkMatcher.init) }

    mutating func answer(_ text: [UInt8]) -> String {
        do throws(BatchLine.Refusal) {
            let line = try BatchLine(text)
            let package = try line.string("packageName", aliases: "package_name")
            let url = try line.string("url")
            guard let matcher = matchers.reading(try line.file("assetlinks", inline: .anyValue)) else {
                throw line.refusal("\"assetlinks\" is not a statement list Google would read (invalid JSON or not an array)")
            }
            let decision = matcher.decide(AndroidURL(url), packageName: package)
            switch decision {
            case .notVerified: return "{\"id\":\(line.id),\"decision\":\"no_match\",\"verified\":false}"
            default: return "{\"id\":\(line.id),\"decision\":\"\(decision.name)\"}"
            }
        } catch {
            return error.answer
        }
    }

    static func run() {
        var batch = AndroidBatchMatch()
        JSONLines.run { batch.answer($0) }
    }
}
