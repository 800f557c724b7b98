import AASA
import AssetLinks
import Vocabulary

/// A result that commands report with an exit status: a verdict, unless nothing certain was learnt
/// about the site (DNS, the network, a refused address: a cause that may be ours). Each platform's
/// check report and each case of the release gate.
public protocol CheckConclusion {
    var verdict: Verdict { get }
    var couldNotCheck: Bool { get }
}

extension CheckConclusion {
    /// 0 pass · 1 warnings · 2 errors · 3 could not check: `check`'s and `verify-app`'s exit status,
    /// which CI jobs branch on.
    public var exitStatus: Int32 {
        if couldNotCheck { return 3 }
        switch verdict {
        case .pass: return 0
        case .warn: return 1
        case .fail: return 2
        }
    }
}

extension CheckReport: CheckConclusion {}
extension AndroidCheckReport: CheckConclusion {}

/// The exit status of several results, and its word.
public enum CheckExitStatus {
    /// Several results as one: an error first (a definite failure, retrying will not help), then a
    /// check that could not be made, then warnings; 0 when all pass or there is none.
    public static func worst(_ statuses: some Sequence<Int32>) -> Int32 {
        let present = Set(statuses)
        return [2, 3, 1].first { present.contains($0) } ?? 0
    }

    /// The word the text output prints for a status: PASS, WARN, FAIL or COULD NOT CHECK.
    public static func word(_ status: Int32) -> String {
        switch status {
        case 0: "PASS"
        case 1: "WARN"
        case 2: "FAIL"
        default: "COULD NOT CHECK"
        }
    }
}
