/// What an apply does (or, with `--dry-run`, would do), step by step, like `terraform plan`.
/// The details never hold a secret: a channel's URL or secret shows as "changed", only an email
/// address is shown as it is.
public struct ConfigPlan: Sendable, Equatable {
    public enum Action: String, Sendable {
        case add, change, remove
    }

    public enum Subject: Sendable, Equatable {
        /// By the name people read (Unicode, `*.` for a wildcard).
        case domain(String)
        case app(String)
        case channel(String)
        /// An instance setting, by its section's name in the file (`alerts`).
        case settings(String)
    }

    public struct Step: Sendable, Equatable {
        public var action: Action
        public var subject: Subject
        /// One line per field that changes (or, for an add, what the new entry holds).
        public var details: [String]

        public init(action: Action, subject: Subject, details: [String]) {
            self.action = action
            self.subject = subject
            self.details = details
        }
    }

    public var steps: [Step] = []
    /// In the database but not in the file, and kept because `--prune` was not given (or the file
    /// does not manage that list).
    public var keptDomains: [String] = []
    public var keptApps: [String] = []
    public var keptChannels: [String] = []
    /// False for a dry run: nothing was written.
    public var applied = false

    public var isEmpty: Bool { steps.isEmpty }

    public func count(_ action: Action) -> Int { steps.filter { $0.action == action }.count }
}
