import Store
import Vocabulary

/// What registering an app will do, shown before anything is written (the import's preview page,
/// `app import --dry-run`, the API's `preview`): the app, each domain with its links and whether it
/// is new, the watched URLs, and what the files said that will not be monitored.
public struct AppPlan: Sendable, Equatable {
    /// What will be stored.
    public var draft: AppDraft
    /// Each domain the app names, in the order first named.
    public var domains: [PlannedDomain]
    /// Entries read but not registered (an SSO extension's `authsrv:`, a duplicate, a host without
    /// autoVerify), each with why.
    public var ignored: [String]
    /// Notes on accepted entries (an alternate mode, a Unicode host).
    public var notes: [String]
    /// An edit's plan: the domains the app claims now and will no longer claim (they stay registered).
    public var dropped: [String] = []

    public struct PlannedDomain: Sendable, Equatable {
        public var key: AppDomainKey
        /// Not registered yet: the app registers it, due for its first check at once.
        public var isNew: Bool
        public var links: [AppLinkDraft]

        /// `*.example.com` for a wildcard.
        public var displayHost: String { key.wildcard ? "*.\(key.displayName)" : key.displayName }
    }
}
