import Vocabulary
import AASA

/// Measures a document against a domain's expectations. Pure.
public enum ExpectationEvaluation {
    /// The app IDs a device would associate with each service of `document`.
    public static func presentAppIDs(in document: AASADocument) -> [Service: Set<String>] {
        var present: [Service: Set<String>] = [:]
        for service in Service.allCases {
            switch service {
            case .applinks:
                // Only `details` routes links; the legacy `apps` array carries no app IDs that open anything.
                present[.applinks] = Set(document.applinks?.details.flatMap(\.appIDs) ?? [])
            default:
                present[service] = Set(document.appServices[service.rawValue]?.apps ?? [])
            }
        }
        return present
    }

    /// Compares `document` with `expectations`; `outcome` says what a URL does under this document
    /// (the matcher's answer), so this stays independent of how matching works.
    /// A nil document (nothing usable was served) misses every required app ID and opens no app.
    public static func evaluate(_ expectations: Expectations, document: AASADocument?,
                                outcome: (String) -> URLOutcome) -> ExpectationResults {
        let present = document.map(presentAppIDs(in:)) ?? [:]
        var missing: [Service: [String]] = [:]
        for (service, required) in expectations.appIDs {
            let have = present[service] ?? []
            let absent = required.filter { !have.contains($0) }
            if !absent.isEmpty { missing[service] = Array(Set(absent)).sorted() }
        }
        let watched = expectations.watchedURLs.map { watch in
            WatchedURLResult(url: watch.url, expected: watch.expected,
                             actual: document == nil ? .staysInBrowser : outcome(watch.url))
        }
        return ExpectationResults(missingAppIDs: missing, watchedURLs: watched)
    }

    /// Compares `document` with `expectations`, judging watched URLs with the AASA matcher: a URL's
    /// outcome is the app that opens it when every listed app is installed (Apple's preference order).
    public static func evaluate(_ expectations: Expectations, document: AASADocument?) -> ExpectationResults {
        let compiled = document.map(CompiledDocument.init)
        return evaluate(expectations, document: document) { url in
            compiled?.apps(for: url).first.map { .opensApp($0.appID) } ?? .staysInBrowser
        }
    }
}
