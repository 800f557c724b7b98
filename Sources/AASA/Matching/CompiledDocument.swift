import LocatedJSON

/// A document compiled once for matching many URLs with Apple's semantics (aasa-spec.md §7–§12).
///
/// Pure and immutable, so one instance can be shared across threads. Matching cost is linear in the
/// URL for plain patterns and input × live states for patterns with variables; no input makes it
/// backtrack exponentially.
public struct CompiledDocument: Sendable {
    public let document: AASADocument
    let rules: [CompiledRule]
    /// For each app, indices into `rules` in the order the device tries them (§12 step 6).
    let rulesByApp: [String: [Int]]
    /// The same for files with few apps (the usual case), where comparing a few strings beats hashing one.
    private let fewApps: [AppRules]?
    /// For each app, its position in each entry that lists it, to order apps within one entry.
    let positionInEntry: [String: [Int: Int]]
    /// Apps in order of first appearance in `applinks.details`.
    public let appIDs: [String]
    let needsDecoding: Bool
    let needsQueryItems: Bool
    let variables: SubstitutionVariables

    public init(_ document: AASADocument) {
        self.document = document
        let applinks = document.applinks
        let variables = SubstitutionVariables(applinks?.substitutionVariables ?? [])
        self.variables = variables
        let tokenizer = PatternTokenizer(variables: variables)
        var rules: [CompiledRule] = []
        var rulesByApp: [String: [Int]] = [:]
        var positionInEntry: [String: [Int: Int]] = [:]
        var appIDs: [String] = []
        for (entryIndex, entry) in (applinks?.details ?? []).enumerated() {
            let first = rules.count
            for (ruleIndex, rule) in entry.rules.enumerated() {
                let settings = EffectiveSettings(rule: rule, entryDefaults: entry.defaults,
                                                 applinksDefaults: applinks?.defaults)
                rules.append(CompiledRule(entryIndex: entryIndex, ruleIndex: ruleIndex, settings: settings,
                                          tokenizer: tokenizer))
            }
            for (position, appID) in entry.appIDs.enumerated() {
                if rulesByApp[appID] == nil {
                    appIDs.append(appID)
                    rulesByApp[appID] = []
                }
                // An app listed twice in one entry still tries that entry's rules once.
                guard positionInEntry[appID, default: [:]][entryIndex] == nil else { continue }
                positionInEntry[appID, default: [:]][entryIndex] = position
                rulesByApp[appID, default: []].append(contentsOf: first..<rules.count)
            }
        }
        self.rules = rules
        self.rulesByApp = rulesByApp
        fewApps = appIDs.count <= 8 ? appIDs.map { AppRules(appID: $0, rules: rulesByApp[$0] ?? []) } : nil
        self.positionInEntry = positionInEntry
        self.appIDs = appIDs
        needsDecoding = rules.contains(where: \.needsDecoding)
        needsQueryItems = rules.contains(where: \.needsQueryItems)
    }

    /// Does `appID` get `url` from this file? The first rule of the app that matches decides
    /// (§12 step 9). App identifiers are compared exactly: whether devices ignore case is unknown (§17 item 10).
    public func decide(url: String, appID: String) -> MatchDecision {
        guard let indices = ruleIndices(of: appID), !indices.isEmpty else { return .noMatch }
        return url.withContiguousUTF8 { bytes in
            switch URLSubject(bytes, decoding: needsDecoding, splittingQuery: needsQueryItems) {
            case .borrowed(let url): decide(url, indices)
            case .prepared(let url): decide(url, indices)
            case .notUniversalLink: .noMatch
            }
        }
    }

    public func decide(parts: URLParts, appID: String) -> MatchDecision {
        guard parts.canBeUniversalLink, let indices = rulesByApp[appID], !indices.isEmpty else { return .noMatch }
        return decide(prepare(parts), indices)
    }

    private func ruleIndices(of appID: String) -> [Int]? {
        if let fewApps {
            return appID.withContiguousUTF8 { wanted in
                let wantedIsASCII = ByteLanes.isASCII(wanted)
                // By index: binding each element would retain its strings and array.
                for index in fewApps.indices where fewApps[index].isNamed(appID, bytes: wanted, ascii: wantedIsASCII) {
                    return fewApps[index].rules
                }
                return nil
            }
        }
        return rulesByApp[appID]
    }

    private func decide<URL: MatchSubject>(_ prepared: URL, _ indices: [Int]) -> MatchDecision {
        for index in indices where rules[index].matches(prepared) {
            // Read in place: copying a rule out of the array would retain every pattern it holds.
            return rules[index].exclude ? .exclude(entry: rules[index].entryIndex, rule: rules[index].ruleIndex)
                : .match(entry: rules[index].entryIndex, rule: rules[index].ruleIndex)
        }
        return .noMatch
    }

    /// Every listed app's decision for `url`, in order of the apps' first appearance.
    public func decisions(url: String) -> [(appID: String, decision: MatchDecision)] {
        url.withContiguousUTF8 { bytes in
            switch URLSubject(bytes, decoding: needsDecoding, splittingQuery: needsQueryItems) {
            case .borrowed(let url): decisions(url)
            case .prepared(let url): decisions(url)
            case .notUniversalLink: appIDs.map { ($0, .noMatch) }
            }
        }
    }

    private func decisions<URL: MatchSubject>(_ prepared: URL) -> [(appID: String, decision: MatchDecision)] {
        // Apps sharing an entry share its rules: test each rule at most once per URL.
        var memo = [Int8](repeating: -1, count: rules.count)
        return appIDs.map { appID in
            for index in rulesByApp[appID] ?? [] {
                if memo[index] < 0 { memo[index] = rules[index].matches(prepared) ? 1 : 0 }
                if memo[index] == 1 {
                    let decision: MatchDecision = rules[index].exclude
                        ? .exclude(entry: rules[index].entryIndex, rule: rules[index].ruleIndex)
                        : .match(entry: rules[index].entryIndex, rule: rules[index].ruleIndex)
                    return (appID, decision)
                }
            }
            return (appID, .noMatch)
        }
    }

    /// The apps `url` opens, in the order the system prefers them: the app whose deciding entry comes
    /// first in the file wins, and within one entry the app listed first (§12 step 10). The first element
    /// is the app that opens the URL when all are installed. An exclusion only blocks the app whose rule
    /// it is (§12 step 11, the reading the per-app evidence favours).
    public func apps(for url: String) -> [AppMatch] {
        decisions(url: url).compactMap { appID, decision -> AppMatch? in
            guard case .match(let entry, let rule) = decision else { return nil }
            return AppMatch(appID: appID, entry: entry, rule: rule)
        }
        .sorted { lhs, rhs in
            if lhs.entry != rhs.entry { return lhs.entry < rhs.entry }
            return (positionInEntry[lhs.appID]?[lhs.entry] ?? 0) < (positionInEntry[rhs.appID]?[rhs.entry] ?? 0)
        }
    }

    func prepare(_ parts: URLParts) -> PreparedURL {
        PreparedURL(parts, decoding: needsDecoding, splittingQuery: needsQueryItems)
    }
}
