import ConfigFile

/// A plan as JSON: `apply --json` prints it, and the API answers it (`POST /api/v1/config/plan` and
/// `…/apply`), so `apply --server` reads the server's plan back into a `ConfigPlan` and prints it with
/// the very lines a local apply prints. Keys are single words, the same in camelCase and snake_case.
public struct ConfigPlanJSON: Codable, Sendable, Equatable {
    public struct Step: Codable, Sendable, Equatable {
        public var action: String, type: String, name: String, details: [String]
    }
    public struct Counts: Codable, Sendable, Equatable { public var add: Int, change: Int, remove: Int }
    public struct Kept: Codable, Sendable, Equatable { public var domains: [String], apps: [String], channels: [String] }

    public var applied: Bool
    public var changes: Counts
    public var steps: [Step]
    public var kept: Kept

    public init(_ plan: ConfigPlan) {
        applied = plan.applied
        changes = Counts(add: plan.count(.add), change: plan.count(.change), remove: plan.count(.remove))
        steps = plan.steps.map { step in
            let (type, name): (String, String) = switch step.subject {
            case .domain(let name): ("domain", name)
            case .app(let name): ("app", name)
            case .channel(let name): ("channel", name)
            case .settings(let name): ("settings", name)
            }
            return Step(action: step.action.rawValue, type: type, name: name, details: step.details)
        }
        kept = Kept(domains: plan.keptDomains, apps: plan.keptApps, channels: plan.keptChannels)
    }

    /// The plan again; nil when a step names an action or a type this version does not know (a
    /// server newer than the client), so the caller says so rather than printing half a plan.
    public var plan: ConfigPlan? {
        var plan = ConfigPlan()
        plan.applied = applied
        plan.keptDomains = kept.domains
        plan.keptApps = kept.apps
        plan.keptChannels = kept.channels
        for step in steps {
            guard let action = ConfigPlan.Action(rawValue: step.action) else { return nil }
            let subject: ConfigPlan.Subject
            switch step.type {
            case "domain": subject = .domain(step.name)
            case "app": subject = .app(step.name)
            case "channel": subject = .channel(step.name)
            case "settings": subject = .settings(step.name)
            default: return nil
            }
            plan.steps.append(.init(action: action, subject: subject, details: step.details))
        }
        return plan
    }
}

/// A refused file as JSON: every problem with its line (0: the file as a whole), as `apply --json`
/// prints it and the API's 422 carries it beside its error.
public struct ConfigProblemJSON: Codable, Sendable, Equatable {
    public var line: Int
    public var message: String

    public init(_ problem: ConfigProblem) {
        line = problem.line
        message = problem.message
    }

    public var problem: ConfigProblem { ConfigProblem(line: line, message) }
}

extension DomainRegistry {
    /// The config file `export --yaml` writes, header included: the same text from the CLI and the API.
    public func exportYAML() throws -> String {
        try ConfigWriter.yaml(try exportConfig(), header: [
            "aasa-monitor config (apply it with: aasa-monitor apply FILE). Secrets are ${NAME} references to the environment.",
        ])
    }
}
