import Vocabulary
import AASA

/// One thing that changed between two consecutive checks of a domain.
public enum CheckEvent: Hashable, Sendable, Codable {
    case becameUnreachable
    case becameReachable
    /// The origin serves a different file (nil: none at all).
    case versionChanged(from: String?, to: String?)
    case verdictChanged(from: Verdict, to: Verdict)
    case findingsAppeared([Finding])
    case findingsDisappeared([Finding])
    /// Required app IDs that were present before and are missing now.
    case appIDsDisappeared(Service, [String])
    case appIDsReappeared(Service, [String])
    case watchedURLChanged(url: String, from: URLOutcome, to: URLOutcome)
}
