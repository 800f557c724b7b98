import Foundation
import Monitor
import Store
import Vocabulary

/// /metrics in the Prometheus text format: counts the database keeps (see `monitorMetrics`). Gets the
/// two aggregates it reads, checks (with the domain counters) and apps.
struct MetricsHandler: Sendable {
    let store: any CheckStore & AppStore & Sendable

    func metrics(_ c: RequestContext) throws -> WebResponse {
        if let token = c.configuration.metricsToken, !Self.isAuthorized(c.request, token: token) {
            return .text("Send the metrics token: Authorization: Bearer TOKEN\n", status: 401).with(header: "WWW-Authenticate", "Bearer")
        }
        let m = try store.monitorMetrics()
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String) { out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n" }
        func label(_ v: String) -> String {
            v.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
        }
        metric("aasa_domains", "gauge", "Registered domains by state: the latest check's verdict, failing when an expectation is unmet.")
        for (k, v) in m.domainsByState.sorted(by: { $0.key < $1.key }) { out += "aasa_domains{verdict=\"\(label(k))\"} \(v)\n" }
        metric("aasa_domains_unmet_expectations", "gauge", "Domains with a platform whose file passes or warns but misses an expectation of that platform (a required app ID, a watched URL's outcome): that platform's state fails, and the domain counts as failing in aasa_domains.")
        out += "aasa_domains_unmet_expectations \(m.unmetExpectations)\n"
        metric("aasa_platform_domains", "gauge",
               "Domains by platform and that platform's state, as the dashboard shows it: its file's verdict in the latest check, failing where an expectation of that platform is unmet (apple-app-site-association; assetlinks.json where the site serves one or an Android app is expected). A domain watched for both counts once per platform.")
        for platform in Platform.allCases {
            for verdict in [Verdict.pass, .warn, .fail] {
                out += "aasa_platform_domains{platform=\"\(platform.rawValue)\",verdict=\"\(verdict.rawValue)\"} \(m.domainsByPlatform[platform]?[verdict] ?? 0)\n"
            }
        }
        metric("aasa_checks_total", "counter", "Checks made, changed or unchanged, by verdict.")
        for (k, v) in m.checksByVerdict.sorted(by: { $0.key < $1.key }) { out += "aasa_checks_total{verdict=\"\(label(k))\"} \(v)\n" }
        metric("aasa_failing_domains", "gauge",
               "Domains failing on a platform whose latest check has an error finding of this code there, by platform and finding code: apple-app-site-association's where Apple's state fails, assetlinks.json's where Android's does (the domains aasa_platform_domains counts with verdict fail). A domain failing on one platform counts that platform's codes only.")
        for platform in Platform.allCases {
            for (k, v) in (m.failingByCode[platform] ?? [:]).sorted(by: { $0.key < $1.key }) {
                out += "aasa_failing_domains{platform=\"\(platform.rawValue)\",code=\"\(label(k))\"} \(v)\n"
            }
        }
        // Seconds, Prometheus's base unit (promtool's lint refuses a _milliseconds histogram); the store
        // keeps whole milliseconds, written here as exact decimals.
        metric("aasa_check_latency_seconds", "histogram", "Origin fetch time of every check made (a deleted domain's checks included).")
        for b in m.latencyBuckets { out += "aasa_check_latency_seconds_bucket{le=\"\(Self.seconds(b.le))\"} \(b.count)\n" }
        out += "aasa_check_latency_seconds_bucket{le=\"+Inf\"} \(m.latencyCount)\n"
        out += "aasa_check_latency_seconds_sum \(Self.seconds(m.latencySum))\naasa_check_latency_seconds_count \(m.latencyCount)\n"
        metric("aasa_check_queue_depth", "gauge",
               "Domains due or requested and not yet taken by a worker, counted up to \(MonitorMetrics.queueDepthLimit): a larger queue reads \(MonitorMetrics.queueDepthLimit) (see aasa_check_queue_lag_seconds).")
        out += "aasa_check_queue_depth \(m.queueDepth)\n"
        metric("aasa_check_queue_lag_seconds", "gauge",
               "How long the domain waiting longest in that queue has been due or requested; 0 when the queue is empty.")
        out += "aasa_check_queue_lag_seconds \(Self.seconds(Int((m.queueLagSeconds * 1000).rounded())))\n"
        metric("aasa_deliveries", "gauge", "Notification deliveries by state.")
        for s in ["pending", "sent", "failed"] { out += "aasa_deliveries{state=\"\(s)\"} \(m.deliveriesByState[s] ?? 0)\n" }
        let apps = try AppSummary.load(from: store)
        // App names are chosen by people and say what a company builds; an open /metrics shows
        // them to anyone who reaches the port. Without a token the per-app series are summed over
        // the apps (no `app` label) and the per-app alert counts are left out.
        let named = c.configuration.metricsToken != nil
        metric("aasa_app_domains", "gauge", named
            ? "Domains each app claims per platform and service, by the state of the app's link: the domain's file judged for this app (its IDs, package and keys; developer mode ignores the CDN)."
            : "Links of every app per platform and service, by the state of the link: the domain's file judged for its app (its IDs, package and keys; developer mode ignores the CDN). Set a metrics token to get one series per app.")
        if named {
            for app in apps {
                for (kind, states) in app.links.sorted(by: { $0.key < $1.key }) {
                    let labels = "app=\"\(label(app.name))\",platform=\"\(kind.platform.rawValue)\",service=\"\(kind.service.rawValue)\""
                    for s in DomainState.allCases { out += "aasa_app_domains{\(labels),state=\"\(s.rawValue)\"} \(states[s] ?? 0)\n" }
                }
            }
            metric("aasa_app_open_alerts", "gauge", "Open alerts on the domains each app claims.")
            for app in apps { out += "aasa_app_open_alerts{app=\"\(label(app.name))\"} \(app.openAlerts)\n" }
        } else {
            var totals: [AppSummary.LinkKind: [DomainState: Int]] = [:]
            for app in apps {
                for (kind, states) in app.links {
                    for (state, count) in states { totals[kind, default: [:]][state, default: 0] += count }
                }
            }
            for (kind, states) in totals.sorted(by: { $0.key < $1.key }) {
                let labels = "platform=\"\(kind.platform.rawValue)\",service=\"\(kind.service.rawValue)\""
                for s in DomainState.allCases { out += "aasa_app_domains{\(labels),state=\"\(s.rawValue)\"} \(states[s] ?? 0)\n" }
            }
        }
        return .text(out, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    /// Whole milliseconds as exact decimal seconds: 2500 → "2.5", 50 → "0.05", 1000 → "1".
    static func seconds(_ milliseconds: Int) -> String {
        let whole = milliseconds / 1000, fraction = abs(milliseconds % 1000)
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(milliseconds < 0 && whole == 0 ? "-" : "")\(whole).\(digits)"
    }

    /// Prometheus sends `authorization: { credentials: … }` (or `bearer_token`) as this header.
    static func isAuthorized(_ request: WebRequest, token: String) -> Bool {
        guard let presented = Authentication.bearerToken(request) else { return false }
        return Crypto.constantTimeEqual(SHA256.digest(Array(presented.utf8)), SHA256.digest(Array(token.utf8)))
    }
}
