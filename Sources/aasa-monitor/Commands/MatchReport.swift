import AASA
import Foundation
import Vocabulary

/// What `aasa-monitor match` prints, as text or JSON.
struct MatchReport {
    struct AppLine: Encodable {
        var appId: String
        var decision: String
        var entry: Int?
        var rule: Int?
        var ruleText: String?
        var explanation: MatchExplanation?
    }

    let url: String
    let appID: String?
    let lines: [AppLine]
    /// The app that opens the URL (first in precedence), nil for the browser.
    let opener: String?
    let outsideDomain: String?

    init(compiled: CompiledDocument, url: String, appID: String?, domain: String?, explain: Bool) {
        self.url = url
        self.appID = appID
        let parts = URLParts(parsing: url)
        outsideDomain = domain.flatMap { parts.isCovered(byFileOf: $0) ? nil : $0 }
        let apps = appID.map { [$0] } ?? compiled.appIDs
        lines = apps.map { app in
            let explanation = compiled.explain(url: url, appID: app, domain: domain)
            let decision = explanation.decision
            return AppLine(appId: app, decision: decision.name, entry: decision.entry, rule: decision.rule,
                           ruleText: explanation.decidingRule?.text, explanation: explain ? explanation : nil)
        }
        if outsideDomain != nil {
            opener = nil
        } else {
            let order = compiled.apps(for: url).map(\.appID)
            opener = appID.map { order.contains($0) ? $0 : nil } ?? order.first
        }
    }

    /// With --app: whether the URL reaches that app (another app earlier in the file may still win on a
    /// device with both installed). Without: whether it opens any app.
    var opens: Bool {
        if let appID { return lines.first { $0.appId == appID }?.decision == "match" }
        return opener != nil
    }

    func text() -> TerminalText {
        var out: TerminalText = ""
        if let outsideDomain {
            out += "\(url): the host is not \(outsideDomain) or a subdomain of it, so this file is never consulted for it.\n"
        } else if appID == nil {
            out += opener.map { "\(url) opens \($0)\n" } ?? "\(url) opens in the browser (no app matches)\n"
        }
        let width = lines.map(\.appId.count).max() ?? 0
        for line in lines {
            let padded = line.appId.padding(toLength: width, withPad: " ", startingAt: 0)
            var row = "  \(padded)  \(line.decision.padding(toLength: 8, withPad: " ", startingAt: 0))"
            if let entry = line.entry, let rule = line.rule {
                row += "  rule \(rule + 1) of details entry \(entry + 1)  \(line.ruleText ?? "")"
            }
            let deciding = line.entry.map { " (rule \((line.rule ?? 0) + 1) of details entry \($0 + 1): \(line.ruleText ?? ""))" } ?? ""
            out += appID == nil ? "\(row.trimmingTrailingSpaces())\n" : "\(line.decision): \(line.appId)\(deciding)\n"
            if let explanation = line.explanation { out += Self.explanationText(explanation) }
        }
        if lines.isEmpty { out += "  (the file lists no apps under applinks.details)\n" }
        return out
    }

    static func explanationText(_ explanation: MatchExplanation) -> TerminalText {
        var out: TerminalText = "    \(explanation.summary)\n"
        if let rule = explanation.decidingRule ?? explanation.closestRule {
            out += "    \(explanation.decidingRule == nil ? "Closest rule" : "Deciding rule"): \(rule.name) at \(rule.location)\n"
            if let legacy = rule.legacyPath { out += "      legacy path: \(legacy)\n" }
            if let comment = rule.comment { out += "      comment: \(comment)\n" }
            for setting in rule.settings {
                out += "      \(setting.key.padding(toLength: 14, withPad: " ", startingAt: 0)) \(setting.value)  (\(setting.source.phrase))\n"
            }
        }
        if explanation.trace.count > 1 {
            out += "    Rules tried in order:\n"
            for trace in explanation.trace {
                out += "      \(trace.matched ? "✓" : "✗") \(trace.name): \(trace.legacyPath.map { "legacy \"\($0)\"" } ?? trace.text)\n"
            }
        }
        return out
    }

    func json() -> TerminalText {
        struct Output: Encodable {
            var url: String
            var opens: String?
            var outsideDomain: String?
            var apps: [AppLine]
        }
        return ValidationOutput.encoded(Output(url: url, opens: opener, outsideDomain: outsideDomain, apps: lines))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
