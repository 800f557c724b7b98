import Vocabulary

/// Compares two versions of a file by behaviour (aasa-spec.md §9, §12): which apps each service
/// lists, what each app's ordered rules do, and, for sample URLs, which outcomes change.
public enum AASADiff {
    /// Never fails; two documents that behave the same give `isBehaviourallyEqual == true` however
    /// differently they are written (key order, defaults hoisting, legacy paths vs components,
    /// `buy/*` vs `/buy/*`, `"#": "*"` vs no `#`).
    public static func diff(old: AASADocument, new: AASADocument, urls: [String] = []) -> DocumentDiff {
        let oldCompiled = CompiledDocument(old)
        let newCompiled = CompiledDocument(new)
        return DocumentDiff(services: serviceChanges(old, new),
                            apps: ruleChanges(oldCompiled, newCompiled),
                            appOrder: orderChange(oldCompiled, newCompiled),
                            urls: outcomeChanges(oldCompiled, newCompiled, urls),
                            openers: openerChanges(oldCompiled, newCompiled, urls))
    }

    static let namedServices = ["applinks", "webcredentials", "appclips", "activitycontinuation"]

    private static func serviceChanges(_ old: AASADocument, _ new: AASADocument) -> [ServiceChange] {
        func apps(_ doc: AASADocument, _ service: String) -> Set<String> {
            if service == "applinks" { return Set(doc.applinks?.details.flatMap(\.appIDs) ?? []) }
            return Set(doc.appServices[service]?.apps ?? [])
        }
        let others = Set(old.appServices.keys).union(new.appServices.keys).subtracting(namedServices).sorted()
        return (namedServices + others).compactMap { service in
            let before = apps(old, service)
            let after = apps(new, service)
            let change = ServiceChange(service: service, added: after.subtracting(before).sorted(),
                                       removed: before.subtracting(after).sorted())
            return change.added.isEmpty && change.removed.isEmpty ? nil : change
        }
    }

    private struct Item {
        var behaviour: RuleBehaviour
        var location: SourceLocation
    }

    private static func items(_ compiled: CompiledDocument, _ appID: String) -> [Item] {
        let variables = Dictionary(compiled.document.applinks?.substitutionVariables.map { ($0.name, $0.values) } ?? [],
                                   uniquingKeysWith: { $1 })
        return (compiled.rulesByApp[appID] ?? []).map { index in
            let rule = compiled.rules[index]
            let location = compiled.document.applinks?.details[rule.entryIndex].rules[rule.ruleIndex].location
            return Item(behaviour: RuleBehaviour(rule.settings, variables: variables),
                        location: location ?? SourceLocation(pointer: "/applinks/details/\(rule.entryIndex)"))
        }
    }

    private static func ruleChanges(_ old: CompiledDocument, _ new: CompiledDocument) -> [AppRuleChanges] {
        var apps = old.appIDs
        for app in new.appIDs where old.rulesByApp[app] == nil { apps.append(app) }
        return apps.compactMap { app in
            let changes = compare(items(old, app), items(new, app))
            return changes.isEmpty ? nil : AppRuleChanges(appID: app, changes: changes)
        }
    }

    /// Rules kept in order (longest common subsequence) are unchanged; equal rules outside it moved;
    /// of the rest, an old and a new rule with the same path are one rule changed; the others were
    /// removed or added.
    private static func compare(_ old: [Item], _ new: [Item]) -> [RuleChange] {
        var oldUsed = [Bool](repeating: false, count: old.count)
        var newUsed = [Bool](repeating: false, count: new.count)
        for (i, j) in commonSubsequence(old.map(\.behaviour), new.map(\.behaviour)) {
            oldUsed[i] = true
            newUsed[j] = true
        }
        var changes: [RuleChange] = []
        func change(_ kind: RuleChange.Kind, _ i: Int?, _ j: Int?, keys: [String] = []) -> RuleChange {
            RuleChange(kind: kind, oldPosition: i, newPosition: j, oldLocation: i.map { old[$0].location },
                       newLocation: j.map { new[$0].location }, oldRule: i.map { old[$0].behaviour },
                       newRule: j.map { new[$0].behaviour }, changedKeys: keys)
        }
        for i in old.indices where !oldUsed[i] {
            if let j = new.indices.first(where: { !newUsed[$0] && new[$0].behaviour == old[i].behaviour }) {
                oldUsed[i] = true
                newUsed[j] = true
                changes.append(change(.moved, i, j))
            }
        }
        for i in old.indices where !oldUsed[i] {
            if let j = new.indices.first(where: { !newUsed[$0] && new[$0].behaviour.path == old[i].behaviour.path }) {
                oldUsed[i] = true
                newUsed[j] = true
                changes.append(change(.changed, i, j, keys: new[j].behaviour.changedKeys(from: old[i].behaviour)))
            }
        }
        for i in old.indices where !oldUsed[i] { changes.append(change(.removed, i, nil)) }
        for j in new.indices where !newUsed[j] { changes.append(change(.added, nil, j)) }
        // In reading order: by position, and at one position what went before what came.
        func key(_ change: RuleChange) -> (Int, Int) {
            let rank = change.kind == .removed ? 0 : change.kind == .added ? 2 : 1
            return (change.newPosition ?? change.oldPosition ?? 0, rank)
        }
        return changes.sorted { key($0) < key($1) }
    }

    /// Index pairs of a longest common subsequence. Quadratic; a file under 128 KB holds at most a few
    /// thousand rules per app, and past a bound the greedy in-order pairing stands in.
    private static func commonSubsequence(_ a: [RuleBehaviour], _ b: [RuleBehaviour]) -> [(Int, Int)] {
        guard a.count * b.count <= 4_000_000 else {
            var pairs: [(Int, Int)] = []
            var j = 0
            for i in a.indices {
                if let k = b[j...].firstIndex(of: a[i]) {
                    pairs.append((i, k))
                    j = k + 1
                    if j >= b.count { break }
                }
            }
            return pairs
        }
        let width = b.count + 1
        var table = [Int32](repeating: 0, count: (a.count + 1) * width)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i * width + j] = a[i] == b[j] ? table[(i + 1) * width + j + 1] + 1
                    : max(table[(i + 1) * width + j], table[i * width + j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }

    /// The relative order of apps present in both versions, by their first entry.
    private static func orderChange(_ old: CompiledDocument, _ new: CompiledDocument) -> AppOrderChange? {
        let common = Set(old.appIDs).intersection(new.appIDs)
        let before = old.appIDs.filter(common.contains)
        let after = new.appIDs.filter(common.contains)
        return before == after ? nil : AppOrderChange(old: before, new: after)
    }

    private static func outcomeChanges(_ old: CompiledDocument, _ new: CompiledDocument, _ urls: [String]) -> [URLOutcomeChange] {
        var apps = old.appIDs
        for app in new.appIDs where old.rulesByApp[app] == nil { apps.append(app) }
        var changes: [URLOutcomeChange] = []
        for url in urls {
            for app in apps {
                let before = old.decide(url: url, appID: app)
                let after = new.decide(url: url, appID: app)
                if before.name != after.name {
                    changes.append(URLOutcomeChange(url: url, appID: app, old: before, new: after))
                }
            }
        }
        return changes
    }

    private static func openerChanges(_ old: CompiledDocument, _ new: CompiledDocument, _ urls: [String]) -> [URLOpenerChange] {
        urls.compactMap { url in
            let before = old.apps(for: url).first?.appID
            let after = new.apps(for: url).first?.appID
            return before == after ? nil : URLOpenerChange(url: url, old: before, new: after)
        }
    }
}
