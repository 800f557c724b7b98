import Vocabulary
import Yams

/// Writes a `ConfigDocument` as the YAML `ConfigReader` reads, for `export --yaml`. Channel
/// settings are written as their templates (`${NAME}` references), never as resolved values.
/// The output has no dates or ids, so exporting an unchanged instance twice gives the same bytes
/// (a diff in git shows only what changed).
public enum ConfigWriter {
    public static func yaml(_ document: ConfigDocument, header: [String] = []) throws -> String {
        var top: [(Node, Node)] = [("version", "1")]
        if document.sections.contains(.domains) {
            top.append(("domains", Node(document.domains.map(domain), .implicit, .block)))
        }
        if document.sections.contains(.apps) {
            top.append(("apps", Node(document.apps.map(app), .implicit, .block)))
        }
        if document.sections.contains(.channels) {
            top.append(("channels", Node(document.channels.map(channel), .implicit, .block)))
        }
        if let alerts = document.alerts {
            var pairs: [(Node, Node)] = []
            if let n = alerts.failureThreshold { pairs.append(("failure_threshold", Node(String(n)))) }
            if let n = alerts.successThreshold { pairs.append(("success_threshold", Node(String(n)))) }
            if let n = alerts.retryMinutes { pairs.append(("retry_minutes", Node(String(n)))) }
            top.append(("alerts", Node(pairs)))
        }
        let body = try Yams.serialize(node: Node(top), indent: 2, width: -1, allowUnicode: true)
        return header.map { "# \($0)\n" }.joined() + body
    }

    static func domain(_ d: DomainEntry) -> Node {
        var pairs: [(Node, Node)] = [("host", text(d.host))]
        if let minutes = d.intervalMinutes { pairs.append(("interval_minutes", Node(String(minutes)))) }
        if let badge = d.badge { pairs.append(("badge", badge ? "true" : "false")) }
        if let platforms = d.platforms { pairs.append(("platforms", text(platforms))) }
        if let paused = d.paused { pairs.append(("paused", paused ? "true" : "false")) }
        if !d.appIDs.isEmpty {
            // Grouped by service in the order the entry lists them, so a file reads back as it was
            // written (a file names each service once; export lists them in the documented order).
            var services: [String] = []
            for a in d.appIDs where !services.contains(a.service) { services.append(a.service) }
            pairs.append(("app_ids", Node(services.map { service in
                (text(service), Node(d.appIDs.filter { $0.service == service }.map { text($0.appID) }, .implicit, .block))
            })))
        }
        if !d.watchedURLs.isEmpty {
            let watched: [Node] = d.watchedURLs.map { w in
                var fields: [(Node, Node)] = [("url", text(w.url)), ("expect", text(w.expect))]
                if let android = w.android { fields.append(("android", text(android))) }
                return Node(fields)
            }
            pairs.append(("watched_urls", Node(watched, .implicit, .block)))
        }
        if !d.androidApps.isEmpty {
            let apps: [Node] = d.androidApps.map { a in
                var fields: [(Node, Node)] = [("package", text(a.package))]
                if !a.fingerprints.isEmpty { fields.append(("fingerprints", Node(a.fingerprints.map(text), .implicit, .block))) }
                if !a.uploadKeys.isEmpty { fields.append(("upload_keys", Node(a.uploadKeys.map(text), .implicit, .block))) }
                return Node(fields)
            }
            pairs.append(("android_apps", Node(apps, .implicit, .block)))
        }
        return Node(pairs)
    }

    static func app(_ a: AppEntry) -> Node {
        func list(_ items: [String]) -> Node { Node(items.map(text), .implicit, .block) }
        var pairs: [(Node, Node)] = [("name", text(a.name))]
        if !a.appleAppIDs.isEmpty { pairs.append(("apple_app_ids", list(a.appleAppIDs))) }
        if !a.appleDomains.isEmpty { pairs.append(("apple_domains", list(a.appleDomains))) }
        if !a.androidPackage.isEmpty { pairs.append(("android_package", text(a.androidPackage))) }
        if !a.fingerprints.isEmpty {
            pairs.append(("fingerprints", Node(a.fingerprints.map { f -> Node in
                guard f.role != "app-signing" else { return text(f.fingerprint) }
                let fields: [(Node, Node)] = [("fingerprint", text(f.fingerprint)), ("role", text(f.role))]
                return Node(fields)
            }, .implicit, .block)))
        }
        if !a.androidHosts.isEmpty { pairs.append(("android_hosts", list(a.androidHosts))) }
        if !a.watchedURLs.isEmpty { pairs.append(("watched_urls", list(a.watchedURLs))) }
        if !a.androidWatchedURLs.isEmpty { pairs.append(("android_watched_urls", list(a.androidWatchedURLs))) }
        return Node(pairs)
    }

    static func channel(_ c: ChannelEntry) -> Node {
        var pairs: [(Node, Node)] = [("name", text(c.name)), ("kind", text(c.kind))]
        for (key, value) in c.settings { pairs.append((text(key), text(value.template))) }
        pairs.append(("min_severity", Node(c.minSeverity.rawValue)))
        if !c.domains.isEmpty { pairs.append(("domains", Node(c.domains.map(text), .implicit, .block))) }
        if !c.apps.isEmpty { pairs.append(("apps", Node(c.apps.map(text), .implicit, .block))) }
        if !c.enabled { pairs.append(("enabled", "false")) }
        return Node(pairs)
    }

    /// A string that must read back as the same string: quoted whenever plain YAML would take it
    /// for something else (a number, a boolean, null, an alias …); the emitter decides the rest.
    /// Control, bidi and line-separator characters force double quotes, where the emitter escapes
    /// the controls and a terminal writer can escape the rest as `\uXXXX`, which means the same
    /// character inside double quotes: the file then never reorders or breaks a line on screen.
    static func text(_ s: String) -> Node {
        let plainIsSafe = !s.isEmpty && Int(s) == nil && Double(s) == nil
            && !["true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"].contains(s.lowercased())
            && !s.unicodeScalars.contains(where: isInvisibleOrControl)
        return Node(s, .implicit, plainIsSafe ? .any : .doubleQuoted)
    }

    static func isInvisibleOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029, 0xFEFF: true
        default: false
        }
    }
}
