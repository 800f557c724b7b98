import Vocabulary

/// What changed on Android from one of a domain's stored checks to the next, for the timeline (the
/// domain page's and the API's checks list), as Apple's side shows its version, state and findings:
/// assetlinks.json served for the first time, changed or gone, Android's state moving, its findings
/// appearing and clearing, Google's verdict changing. Pure: two stored results in, events out.
public enum AndroidTimelineEvent: Hashable, Sendable {
    /// A version no earlier check of the domain saw.
    case newVersion(sha256: String)
    /// Back to (or on to) a version an earlier check saw.
    case versionChanged(sha256: String)
    /// The origin stopped serving assetlinks.json.
    case versionRemoved
    case stateChanged(from: DomainState?, to: DomainState)
    case findingsAppeared([String])
    case findingsCleared([String])
    case googleChanged(from: String, to: String)

    /// One line, as the timeline shows it, led by the platform's name.
    public var text: String {
        let android = Platform.android.label + ":"
        return switch self {
        case .newVersion(let sha): "\(android) new assetlinks.json \(sha.prefix(12))"
        case .versionChanged(let sha): "\(android) assetlinks.json changed to \(sha.prefix(12))"
        case .versionRemoved: "\(android) assetlinks.json no longer served"
        case .stateChanged(let from, let to): "\(android) " + (from.map { "\($0.rawValue) → " } ?? "") + to.rawValue
        case .findingsAppeared(let codes): "\(android) new finding\(codes.count == 1 ? "" : "s") " + codes.joined(separator: ", ")
        case .findingsCleared(let codes): "\(android) cleared " + codes.joined(separator: ", ")
        case .googleChanged(let from, let to): "Google's verdict: \(from) → \(to)"
        }
    }

    /// The events from `previous` (the check before, nil for the first one shown) to `current`, for a
    /// domain with this platform setting; `seen`: the assetlinks.json versions earlier checks saw.
    /// A check that did not check Android (watched for Apple only then) has no Android events, nor has
    /// one where Android does not count (`AndroidResult.counts(for:)`: the domain page's column says
    /// "Not watched": no file served, no Android app expected) — except, where it counted the check
    /// before, what left with it: the file gone, its findings cleared.
    public static func between(_ previous: AndroidResult?, _ current: AndroidResult?, platforms: WatchedPlatforms,
                               seen: Set<String>) -> [AndroidTimelineEvent] {
        guard let current else { return [] }
        let counts = current.counts(for: platforms)
        guard counts || previous?.counts(for: platforms) == true else { return [] }
        var events: [AndroidTimelineEvent] = []
        if let sha = current.versionSHA256, sha != previous?.versionSHA256 {
            events.append(seen.contains(sha) ? .versionChanged(sha256: sha) : .newVersion(sha256: sha))
        } else if current.versionSHA256 == nil, previous?.versionSHA256 != nil, !current.serves {
            events.append(.versionRemoved)
        }
        if counts, previous?.verdict != current.verdict {
            events.append(.stateChanged(from: previous.map { DomainState(verdict: $0.verdict) }, to: DomainState(verdict: current.verdict)))
        }
        let before = Set((previous?.findings ?? []).map(\.code)), now = Set(current.findings.map(\.code))
        let appeared = current.findings.map(\.code).filter { !before.contains($0) }
        let cleared = (previous?.findings ?? []).map(\.code).filter { !now.contains($0) }
        if counts, !appeared.isEmpty { events.append(.findingsAppeared(unique(appeared))) }
        if !cleared.isEmpty { events.append(.findingsCleared(unique(cleared))) }
        if counts, let google = current.google, let was = previous?.google, google.timelineWords != was.timelineWords {
            events.append(.googleChanged(from: was.timelineWords, to: google.timelineWords))
        }
        return events
    }

    private static func unique(_ codes: [String]) -> [String] {
        var seen = Set<String>()
        return codes.filter { seen.insert($0).inserted }
    }
}

extension GoogleVerdict {
    /// Google's answer in a few words: what the timeline compares between checks (the statement count
    /// and maxAge move without meaning anything to the operator).
    var timelineWords: String {
        if let unavailable { return "not available (\(unavailable))" }
        if !errorCodes.isEmpty { return errorCodes.joined(separator: ", ") }
        if !notLinked.isEmpty { return "not linked: " + notLinked.joined(separator: ", ") }
        return staleBeyondGrace ? "linked, stale copy" : "linked"
    }
}
