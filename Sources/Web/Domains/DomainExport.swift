import AASA
import Foundation
import HTTP
import Store
import Synchronization
import Vocabulary

/// The domain list export (`/export/domains.json`, `/export/domains.csv`) as a streamed body: the
/// domains are read in keyset batches (`DomainStore.exportDomains(after:limit:)`) and each batch is
/// rendered and sent before the next is read, so memory stays flat in the number of domains (at a
/// million domains the JSON is about 300 MB; built whole it took serve from 49 MB to 2.5 GB).
/// The bytes are the same as the whole body's were, item by item.
final class DomainExport: HTTPBodySource {
    /// How a format writes the list around and between its items.
    struct Format: Sendable {
        var prefix: [UInt8]
        var separator: [UInt8]
        var suffix: [UInt8]
        /// One rendered item per domain of a batch.
        var items: @Sendable ([ExportedDomain]) throws -> [[UInt8]]
    }

    private struct Position {
        var after: ExportCursor?
        var started = false
        var done = false
    }

    /// Domains per batch: a piece of about 150 KB of JSON, and one query per batch.
    static let defaultBatchSize = 500

    private let store: any DomainStore & Sendable
    private let format: Format
    private let batchSize: Int
    private let position = Mutex(Position())

    init(store: any DomainStore & Sendable, format: Format, batchSize: Int = DomainExport.defaultBatchSize) {
        self.store = store
        self.format = format
        self.batchSize = max(1, batchSize)
    }

    func next() throws -> [UInt8]? {
        try position.withLock { p throws -> [UInt8]? in
            guard !p.done else { return nil }
            let batch = try store.exportDomains(after: p.after, limit: batchSize)
            var out = p.started ? [] : format.prefix
            for item in try format.items(batch) {
                if p.started { out += format.separator }
                out += item
                p.started = true
            }
            p.started = true
            if batch.count < batchSize {
                p.done = true
                out += format.suffix
            } else {
                p.after = batch.last?.cursor
            }
            return out
        }
    }

    /// `{"domains":[…]}`, each domain as the API writes it (`DomainAPI.json`), as `APIResponses.json`
    /// wrote the whole list: sorted keys, markup characters escaped (`DomainJSON.jsonBytes`, the
    /// encoder's bytes without the encoder).
    static func json(now: Date) -> Format {
        Format(prefix: Array(#"{"domains":["#.utf8), separator: [UInt8(ascii: ",")], suffix: Array("]}".utf8)) { batch in
            try batch.map { try item($0, now: now).jsonBytes() }
        }
    }

    /// One domain of the JSON export: the API's domain object with the domain's own expectations (as
    /// `GET /api/v1/domains/:id` has them, without the latest check's Android side), so each item is a
    /// body `POST /api/v1/domains` registers again.
    static func item(_ e: ExportedDomain, now: Date) -> DomainAPI.DomainJSON {
        DomainAPI.json(e.record, now: now, detail: (e.appIDList, e.watchedURLs, e.androidApps, latest: nil, androidState: nil))
    }

    /// A header line, then one CRLF-ended line per domain. `app_ids`, `watched_urls` and
    /// `android_apps` hold the lists themselves, each item in the import's syntax and separated by
    /// spaces (`DomainListParser.ExportColumns`), so `import` reads the file back.
    static func csv(now: Date) -> Format {
        Format(prefix: Array("host,display_name,wildcard,state,interval_minutes,last_checked_at,last_changed_at,app_ids,watched_urls,android_apps,paused\r\n".utf8),
               separator: [], suffix: []) { batch in
            batch.map { e in
                let d = e.record
                let state = DomainState(verdict: d.lastVerdict, checking: d.isChecking(now: now)).rawValue
                let line = [csvField(d.host), csvField(d.displayName), d.wildcard ? "true" : "false", state, String(d.intervalSeconds / 60),
                            d.lastCheckedAt.map(CivilDate.iso8601) ?? "", d.lastChangedAt.map(CivilDate.iso8601) ?? "",
                            csvField(appIDsCell(e.appIDList)), csvField(watchedURLsCell(e.watchedURLs)),
                            csvField(androidAppsCell(e.androidApps)), d.paused ? "true" : "false"].joined(separator: ",") + "\r\n"
                return Array(line.utf8)
            }
        }
    }

    /// `applinks:ABCDE12345.com.example.app webcredentials:…`
    static func appIDsCell(_ apps: [AppIDExpectation]) -> String {
        apps.map { "\($0.service.rawValue):\($0.appID)" }.joined(separator: " ")
    }

    /// `https://shop.example/p/1 ABCDE12345.com.example.app https://shop.example/help browser android=nothing`
    static func watchedURLsCell(_ watched: [WatchedURLExpectation]) -> String {
        watched.map { w in
            ([w.url, w.expectedAppID ?? "browser"] + (w.android.map { ["android=\($0.rawValue)"] } ?? [])).joined(separator: " ")
        }.joined(separator: " ")
    }

    /// `com.example.shop=14:6D:…;AB:CD:…=upload`
    static func androidAppsCell(_ apps: [AndroidAppExpectation]) -> String {
        apps.map { app in
            app.packageName + "=" + app.fingerprints.map { app.uploadKeys.contains($0) ? $0 + AndroidAppEntry.uploadMark : $0 }.joined(separator: ";")
        }.joined(separator: " ")
    }

    /// Quoted always, double quotes inside, and spreadsheet formulas defused.
    private static func csvField(_ s: String) -> String {
        var v = s
        if let f = v.first, "=+-@".contains(f) { v = "'" + v }
        // Most fields hold no quote: the bridged search for one cost as much as the rest of the line.
        guard v.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + v + "\"" }
        return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
