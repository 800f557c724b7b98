import ConfigFile
import Foundation
import Registry

/// The plan as `terraform plan` prints one: `+` add, `~` change, `-` remove, a line per field, then
/// a summary. Every value is escaped (TerminalText): hosts and URLs come from the file.
enum ConfigPlanOutput {
    static func lines(_ plan: ConfigPlan) -> [TerminalText] {
        var out: [TerminalText] = []
        for step in plan.steps {
            let mark: TerminalText = switch step.action {
            case .add: "+"
            case .change: "~"
            case .remove: "-"
            }
            let subject: TerminalText = switch step.subject {
            case .domain(let name): "domain \(name)"
            case .app(let name): "app \(name)"
            case .channel(let name): "channel \(name)"
            case .settings(let name): "settings \(name)"
            }
            out.append("\(mark) \(subject)")
            for detail in step.details { out.append("    \(detail)") }
        }
        if !out.isEmpty { out.append("") }
        let counts = "\(plan.count(.add)) to add, \(plan.count(.change)) to change, \(plan.count(.remove)) to remove"
        if plan.isEmpty {
            out.append("No changes: the database already says what the file says.")
        } else if plan.applied {
            out.append("Applied: \(plan.count(.add)) added, \(plan.count(.change)) changed, \(plan.count(.remove)) removed.")
        } else {
            out.append("Plan: \(counts) (dry run: nothing was changed).")
        }
        if !plan.keptDomains.isEmpty || !plan.keptApps.isEmpty || !plan.keptChannels.isEmpty {
            var kept: [String] = []
            if !plan.keptDomains.isEmpty { kept.append(count(plan.keptDomains.count, "domain") + " (" + list(plan.keptDomains) + ")") }
            if !plan.keptApps.isEmpty { kept.append(count(plan.keptApps.count, "app") + " (" + list(plan.keptApps) + ")") }
            if !plan.keptChannels.isEmpty { kept.append(count(plan.keptChannels.count, "channel") + " (" + list(plan.keptChannels) + ")") }
            out.append("Not in the file and kept (--prune removes what a list of the file leaves out): \(kept.joined(separator: ", "))")
        }
        return out
    }

    /// The plan for scripts (`apply --json`): each step with its action, what it is about and the
    /// same detail lines as the text (never a secret), the counts, and what was kept.
    static func json(_ plan: ConfigPlan) -> TerminalText {
        encoded(ConfigPlanJSON(plan))
    }

    /// A refused file for scripts: every problem with its line (0: the file as a whole).
    static func json(_ refusal: ConfigRefusal) -> TerminalText {
        struct Refused: Encodable { let refused: [ConfigProblemJSON] }
        return encoded(Refused(refused: refusal.problems.map(ConfigProblemJSON.init)))
    }

    private static func encoded(_ value: some Encodable) -> TerminalText {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return TerminalText(json: String(decoding: data, as: UTF8.self))
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    private static func list(_ names: [String]) -> String {
        names.count <= 5 ? names.joined(separator: ", ") : names.prefix(5).joined(separator: ", ") + ", …"
    }
}
