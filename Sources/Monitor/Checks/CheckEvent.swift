import Vocabulary
import AASA

/// One thing that changed between two consecutive checks of a domain.
public enum CheckEvent: Hashable, Sendable, Codable {
    case becameUnreachable
    case becameReachable
    /// The origin serves a different file (nil: none at all).
    case versionChanged(from: String?, to: String?)
    case verdictChanged(from: CheckVerdict, to: CheckVerdict)
    case findingsAppeared([Finding])
    case findingsDisappeared([Finding])
    /// Required app IDs that were present before and are missing now.
    case appIDsDisappeared(AssociatedService, [String])
    case appIDsReappeared(AssociatedService, [String])
    case watchedURLChanged(url: String, from: URLOutcome, to: URLOutcome)
}
