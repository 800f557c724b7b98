import AASA

/// The domain page's one-sentence verdict.
enum VerdictSentence {
    static func make(state: DomainState, findings: [Finding], host: String) -> String {
        let errors = findings.filter { $0.severity == .error }
        let warnings = findings.filter { $0.severity == .warning }
        switch state {
        case .never: return "Not checked yet: the first check of \(host) starts shortly."
        case .checking where findings.isEmpty: return "Checking \(host) now."
        case .failing, .checking where !errors.isEmpty:
            let first = errors.first?.message ?? "a check failed"
            return errors.count > 1
                ? "Devices cannot use this file: \(first) (and \(errors.count - 1) more error\(errors.count == 2 ? "" : "s"))."
                : "Devices cannot use this file: \(first)"
        case .warning, .checking where !warnings.isEmpty:
            return "Works, with \(warnings.count) warning\(warnings.count == 1 ? "" : "s") to look at: \(warnings.first?.message ?? "")"
        default:
            return "All good: devices get a valid file for \(host) and every expectation holds."
        }
    }
}
