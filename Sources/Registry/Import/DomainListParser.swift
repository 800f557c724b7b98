import Vocabulary

/// Reads an import file: one domain per line, or CSV whose first column is the host and whose other
/// columns are app IDs (`TEAMID.bundle.id`, for applinks) or `service:TEAMID.bundle.id`, or the
/// domain's own Android apps as `android:PACKAGE=FINGERPRINT[;FINGERPRINT…]` (SHA-256, colons
/// optional, any case: the form's rules), or a watched URL as `url:URL EXPECT [android=PACKAGE|nothing]`
/// (EXPECT: the app ID that must open it, or `browser`; `android=`: its outcome on Android when stated
/// apart, as the form's Android field), checked by the form's rules when the domain is registered.
/// Blank lines, `#` comments and a header row starting with `host` are ignored. Never throws:
/// every line becomes an entry or a refusal with its reason.
///
/// The dashboard's CSV export (`/export/domains.csv`) reads back too: a header that names its columns
/// (`wildcard`, `app_ids`, `watched_urls`, `android_apps`; see `ExportColumns`) makes the columns
/// count by name, each list in one cell, space-separated; the other columns (state, times) are skipped.
public enum DomainListParser {
    public struct Result: Hashable, Sendable {
        public var entries: [DomainListEntry]
        public var refusals: [DomainListRefusal]
    }

    public static func parse(_ text: String) -> Result {
        var entries: [DomainListEntry] = []
        var refusals: [DomainListRefusal] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        var sawData = false
        var named: ExportColumns?
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let line = raw.trimmed(of: " \t\r\u{FEFF}")
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = splitCSV(line).map { $0.trimmed(of: " \t") }
            let firstDataLine = !sawData
            sawData = true
            if firstDataLine, ["host", "domain"].contains(fields[0].lowercased()) {
                named = ExportColumns(header: fields)
                continue
            }
            let (host, items) = named?.items(of: fields) ?? (fields[0], Array(fields.dropFirst()))
            guard !host.isEmpty else {
                refusals.append(DomainListRefusal(line: number, text: line, reason: "the first column (the host) is empty"))
                continue
            }
            var appIDs: [Service: [AppID]] = [:]
            var androidApps: [AndroidAppColumn] = []
            var watchedURLs: [WatchedURLEntry] = []
            var problem: String?
            for field in items where !field.isEmpty {
                if field.lowercased().hasPrefix("url:") {
                    switch watchedURL(String(field.dropFirst("url:".count))) {
                    case .success(let entry): watchedURLs.append(entry)
                    case .failure(let reason): problem = reason.message
                    }
                    if problem != nil { break }
                    continue
                }
                if field.lowercased().hasPrefix("android:") {
                    switch androidApp(String(field.dropFirst("android:".count))) {
                    case .success(let app):
                        if androidApps.contains(where: { $0.package == app.package }) {
                            problem = "\(app.package) is listed twice; put all its fingerprints in one column, separated by ;"
                        } else {
                            androidApps.append(app)
                        }
                    case .failure(let reason):
                        problem = reason.message
                    }
                    if problem != nil { break }
                    continue
                }
                switch appID(field) {
                case .success(let (service, id)):
                    if !(appIDs[service] ?? []).contains(id) { appIDs[service, default: []].append(id) }
                case .failure(let reason):
                    problem = reason.message
                }
                if problem != nil { break }
            }
            if let problem {
                refusals.append(DomainListRefusal(line: number, text: line, reason: problem))
            } else {
                entries.append(DomainListEntry(line: number, host: host, appIDs: appIDs, androidApps: androidApps, watchedURLs: watchedURLs))
            }
        }
        return Result(entries: entries, refusals: refusals)
    }

    struct FieldError: Error { var message: String }

    /// Where the export's list columns are, found by the header's names. Each cell holds a list,
    /// its items separated by spaces (none of them holds one): `app_ids` `SERVICE:TEAMID.bundle.id`
    /// items; `watched_urls` `URL EXPECT [android=PACKAGE|nothing]` groups, each starting at its
    /// http(s) URL; `android_apps` `PACKAGE=FINGERPRINT[;FINGERPRINT…]` items (`=upload` after an
    /// upload key). `wildcard` `true` registers `*.HOST`. They become the items one-per-column files
    /// write, so both are checked by the same rules.
    struct ExportColumns {
        var wildcard: Int?
        var appIDs: Int?
        var watchedURLs: Int?
        var androidApps: Int?

        /// Nil when the header names none of these: its other columns are items, as before.
        init?(header: [String]) {
            func column(_ name: String) -> Int? { header.firstIndex { $0.lowercased() == name } }
            wildcard = column("wildcard")
            appIDs = column("app_ids")
            watchedURLs = column("watched_urls")
            androidApps = column("android_apps")
            if wildcard == nil && appIDs == nil && watchedURLs == nil && androidApps == nil { return nil }
        }

        func items(of fields: [String]) -> (host: String, items: [String]) {
            func cell(_ index: Int?) -> [Substring] {
                guard let index, fields.indices.contains(index) else { return [] }
                return fields[index].split(whereSeparator: { $0 == " " || $0 == "\t" })
            }
            var host = fields[0]
            if let wildcard, fields.indices.contains(wildcard), fields[wildcard].lowercased() == "true", !host.hasPrefix("*.") {
                host = "*." + host
            }
            var items = cell(appIDs).map(String.init)
            var groups: [[Substring]] = []
            for word in cell(watchedURLs) {
                let lower = word.lowercased()
                if groups.isEmpty || lower.hasPrefix("https://") || lower.hasPrefix("http://") { groups.append([word]) } else { groups[groups.count - 1].append(word) }
            }
            items += groups.map { "url:" + $0.joined(separator: " ") }
            items += cell(androidApps).map { "android:" + $0 }
            return (host, items)
        }
    }

    /// `TEAMID.bundle.id` or `service:TEAMID.bundle.id`, the app ID checked by `AppID`'s rule (the
    /// registration form's), so the import refuses exactly what the form refuses.
    static func appID(_ field: String) -> Swift.Result<(Service, AppID), FieldError> {
        var service = Service.applinks
        var id = Substring(field)
        if let colon = field.firstIndex(of: ":") {
            let name = field[..<colon].lowercased()
            guard let known = Service(rawValue: name) else {
                return .failure(FieldError(message: "unknown service \"\(name)\" (use applinks, webcredentials, appclips or activitycontinuation)"))
            }
            service = known
            id = field[field.index(after: colon)...]
        }
        do {
            return .success((service, try AppID(typed: String(id))))
        } catch {
            return .failure(FieldError(message: "\"\(id)\" is not an app ID: \(error.message)"))
        }
    }

    /// `URL EXPECT [android=PACKAGE|nothing]`, split on spaces (a URL has none): the words only; what
    /// they say is checked by the registry, as the form's fields are.
    static func watchedURL(_ text: String) -> Swift.Result<WatchedURLEntry, FieldError> {
        let words = text.split(separator: " ").map(String.init)
        let usage = "write url:URL EXPECT [android=PACKAGE|nothing], EXPECT an app ID or browser (url:https://example.com/p/1 ABCDE12345.com.example.app)"
        guard words.count == 2 || words.count == 3 else { return .failure(FieldError(message: "url:\(text): \(usage)")) }
        var android: String?
        if words.count == 3 {
            guard words[2].lowercased().hasPrefix("android="), words[2].count > "android=".count else {
                return .failure(FieldError(message: "url:\(text): the third word must be android=PACKAGE or android=nothing"))
            }
            android = String(words[2].dropFirst("android=".count))
        }
        return .success(WatchedURLEntry(url: words[0], expect: words[1], android: android))
    }

    /// `PACKAGE=FINGERPRINT[;FINGERPRINT…]`, each checked by the form's rule.
    static func androidApp(_ text: String) -> Swift.Result<AndroidAppColumn, FieldError> {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let package: AndroidPackage
        do {
            package = try AndroidPackage(typed: String(parts[0]))
        } catch {
            return .failure(FieldError(message: "android:\(text): \(error.message)"))
        }
        let typed = parts.count == 2 ? parts[1].split(separator: ";").map { $0.trimmed(of: " \t") }.filter { !$0.isEmpty } : []
        guard !typed.isEmpty else {
            return .failure(FieldError(message: "android:\(text): add the app's SHA-256 fingerprints after =, separated by ; (android:\(package)=14:6D:E9:…)"))
        }
        var fingerprints: Set<CertificateFingerprint> = [], uploadKeys: Set<CertificateFingerprint> = []
        for word in typed {
            let upload = word.lowercased().hasSuffix(AndroidAppEntry.uploadMark)
            do {
                let key = try CertificateFingerprint(typed: upload ? String(word.dropLast(AndroidAppEntry.uploadMark.count)) : word)
                fingerprints.insert(key)
                if upload { uploadKeys.insert(key) }
            } catch {
                return .failure(FieldError(message: "android:\(package): \(error.message)"))
            }
        }
        return .success(AndroidAppColumn(package: package, fingerprints: fingerprints.sorted(), uploadKeys: uploadKeys.sorted()))
    }

    /// Splits one CSV line on commas, honouring double quotes (`""` inside quotes is a quote).
    static func splitCSV(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if quoted {
                if character == "\"" {
                    // Either the closing quote or the first half of an escaped one.
                    var lookahead = iterator
                    if lookahead.next() == "\"" {
                        current.append("\"")
                        iterator = lookahead
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}

extension Substring {
    func trimmed(of set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension String {
    func trimmed(of set: String) -> String { self[...].trimmed(of: set) }
}
