import Vocabulary

/// How two versions of `/.well-known/webauthn` differ in what browsers do with them (issue #33's
/// behavioural diff): which origins may use the RP ID now and no longer, and the label count against
/// the browser's limit. Reordering, comments and entries that never match change nothing here.
public struct RelatedOriginsDiff: Hashable, Sendable {
    /// Origins a browser matches under the new file and did not under the old one, in file order.
    public var related: [TupleOrigin]
    /// Origins a browser matched under the old file and no longer does.
    public var unrelated: [TupleOrigin]
    /// Of `unrelated`, those the new file still lists, but past the label limit.
    public var pushedPastLimit: [TupleOrigin]
    public var oldLabelCount: Int
    public var newLabelCount: Int
    /// Why browsers refuse each version, nil when they read it.
    public var oldRejection: String?
    public var newRejection: String?

    public var isBehaviourallyEqual: Bool {
        related.isEmpty && unrelated.isEmpty && (oldRejection == nil) == (newRejection == nil)
            && (oldLabelCount > LabelWalk.maxLabels) == (newLabelCount > LabelWalk.maxLabels)
    }

    public static func diff(old: RelatedOriginsReport, new: RelatedOriginsReport) -> RelatedOriginsDiff {
        let before = matchable(old), after = matchable(new)
        let listedAfter = Set(new.walk.origins.compactMap(\.origin))
        let unrelated = before.filter { !after.contains($0) }
        return RelatedOriginsDiff(related: after.filter { !before.contains($0) }, unrelated: unrelated,
                                  pushedPastLimit: new.reading.rejection == nil ? unrelated.filter(listedAfter.contains) : [],
                                  oldLabelCount: old.walk.allLabels.count, newLabelCount: new.walk.allLabels.count,
                                  oldRejection: old.reading.rejection, newRejection: new.reading.rejection)
    }

    /// The origins a browser can match, each once, in file order.
    private static func matchable(_ report: RelatedOriginsReport) -> [TupleOrigin] {
        var seen = Set<TupleOrigin>()
        return report.usableOrigins.compactMap(\.origin).filter { seen.insert($0).inserted }
    }

    /// One sentence per change, most harmful first: for alerts, notices and `diff`.
    public var lines: [String] {
        var lines: [String] = []
        if let newRejection, oldRejection == nil {
            lines.append("Browsers now reject the file (\(newRejection)): no related origin may use the RP ID.")
        } else if newRejection == nil, let oldRejection {
            lines.append("Browsers read the file again (before: \(oldRejection)).")
        }
        if newLabelCount > LabelWalk.maxLabels && oldLabelCount <= LabelWalk.maxLabels {
            lines.append("Label count now \(newLabelCount) (was \(oldLabelCount)): origins past the fifth label stop working in Chromium.")
        } else if newLabelCount <= LabelWalk.maxLabels && oldLabelCount > LabelWalk.maxLabels {
            lines.append("Label count now \(newLabelCount) (was \(oldLabelCount)): every label fits the browser's limit again.")
        }
        for origin in unrelated {
            lines.append(pushedPastLimit.contains(origin)
                ? "Origin \(origin) no longer related: still listed, but past the fifth label."
                : "Origin \(origin) no longer related.")
        }
        for origin in related { lines.append("Origin \(origin) now related.") }
        return lines
    }
}
