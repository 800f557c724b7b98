/// What `app add` and `app import` print of a plan, from the local registry's plan or the server's
/// (`POST /api/v1/apps` with preview): one renderer, so both print the same lines.
struct AppPlanLines {
    struct Link {
        var platform: String, service: String, developerMode: Bool, managedMode: Bool
    }
    struct Domain {
        var host: String, isNew: Bool, links: [Link]
    }

    var name: String
    var domains: [Domain]
    var watched: [String]
    var ignored: [String]

    func lines(dryRun: Bool) -> [TerminalText] {
        var out: [TerminalText] = ["\(dryRun ? "would register" : "registering") \(name)"]
        for domain in domains {
            let links = domain.links.map { link in
                var text = "\(link.platform) \(link.service)"
                if link.developerMode { text += " (developer: origin only)" }
                if link.managedMode { text += " (managed)" }
                return text
            }
            out.append("  \(domain.host)\(domain.isNew ? " (new)" : ""): \(links.joined(separator: ", "))")
        }
        for url in watched { out.append("  watch \(url)") }
        for entry in ignored { out.append("  not registered: \(entry)") }
        return out
    }

    static func registered(_ id: Int64, domains: Int) -> TerminalText {
        "registered app \(id) with \(domains) domain\(domains == 1 ? "" : "s")"
    }
}
