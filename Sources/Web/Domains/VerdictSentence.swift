import Vocabulary
import AASA

/// The domain page's one-sentence verdict.
enum VerdictSentence {
    /// `failedExpectations`: the operator's expectations the current file does not meet, in words.
    static func make(state: DomainState, findings: [Finding], host: String, failedExpectations: [String] = [],
                     hasExpectations: Bool = true) -> String {
        let errors = findings.filter { $0.severity == .error }
        let warnings = findings.filter { $0.severity == .warning }
        let expectationNote = failedExpectations.isEmpty ? ""
            : failedExpectations.count == 1 ? " An expectation fails: \(failedExpectations[0])."
            : " \(failedExpectations.count) expectations fail, first: \(failedExpectations[0])."
        switch state {
        case .never: return "Not checked yet: the first check of \(host) starts shortly."
        case .checking where findings.isEmpty && failedExpectations.isEmpty: return "Checking \(host) now."
        // The state counts an unmet expectation as failing although the file itself is fine.
        case .failing where errors.isEmpty && !failedExpectations.isEmpty:
            return "Devices get a valid file for \(host), but not what you expect." + expectationNote
        case .failing: return cannotUse(errors) + expectationNote
        case .checking where !errors.isEmpty: return cannotUse(errors) + expectationNote
        case .warning,
             .checking where !warnings.isEmpty:
            return "Works, with \(warnings.count) warning\(warnings.count == 1 ? "" : "s") to look at: \(warnings.first?.message ?? "")"
                + expectationNote
        default:
            if !failedExpectations.isEmpty { return "Devices get a valid file for \(host), but not what you expect." + expectationNote }
            return hasExpectations ? "All good: devices get a valid file for \(host) and every expectation holds."
                : "All good: devices get a valid file for \(host)."
        }
    }

    /// Android's own sentence: for a domain watched for Android only, and where Android's state is
    /// what makes the domain worse than Apple's. `state`: Android's (`DomainVerdict.androidState`,
    /// unmet watched URLs included); `unmet`: the first watched URL that does not do what it must.
    static func android(_ state: DomainState, findings: [Finding], host: String, unmet: String? = nil,
                        hasExpectations: Bool = false) -> String {
        let errors = findings.filter { $0.severity == .error }, warnings = findings.filter { $0.severity == .warning }
        switch state {
        case .never: return "Not checked yet: the first check of \(host) starts shortly."
        case .checking: return "Checking \(host) now."
        case .failing where errors.isEmpty && unmet != nil:
            return "Android devices get a valid assetlinks.json for \(host), but not what you expect: \(unmet ?? "")"
        case .failing:
            let first = errors.first?.message ?? "an expected app is not verified"
            let more = errors.count > 1 ? " (and \(errors.count - 1) more error\(errors.count == 2 ? "" : "s"))" : ""
            return "Android cannot verify the apps of \(host): \(first)\(more)"
        case .warning:
            return "Works, with \(warnings.count) Android warning\(warnings.count == 1 ? "" : "s") to look at: \(warnings.first?.message ?? "")"
        case .passing:
            return hasExpectations ? "All good: Android devices get a valid assetlinks.json for \(host) and every expectation holds."
                : "All good: Android devices get a valid assetlinks.json for \(host)."
        }
    }

    private static func cannotUse(_ errors: [Finding]) -> String {
        let first = errors.first?.message ?? "a check failed"
        return errors.count > 1
            ? "Devices cannot use this file: \(first) (and \(errors.count - 1) more error\(errors.count == 2 ? "" : "s"))."
            : "Devices cannot use this file: \(first)"
    }
}
