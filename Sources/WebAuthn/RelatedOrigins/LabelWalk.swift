import Vocabulary

/// One entry of `origins` parsed, with the registrable origin label it spends.
public struct RelatedOrigin: Hashable, Sendable {
    public var entry: OriginEntry
    public var url: Result<OriginURL, OriginURLFailure>
    /// The label the entry spends (§3.3 steps 1–4); nil when it spends none: unparseable, no domain
    /// host (an IP address, an opaque host, none), or no registrable domain.
    public var label: String?

    public init(_ entry: OriginEntry, rules: DomainRules) {
        self.entry = entry
        url = OriginURL.parse(entry.text, rules: rules)
        // Labels are taken from the host whatever the special scheme (§3.3.6: http entries spend
        // them too). [uncertain] §7.4: `other://a.com` has an opaque host, which the URL Standard's
        // "registrable domain" leaves null — the spec text and Chromium agree here: no label.
        if case .success(let parsed) = url, parsed.origin != nil, let domain = parsed.domain {
            label = rules.label(of: domain)
        }
    }

    /// The parsed URL, nil when the entry failed to parse.
    public var parsed: OriginURL? {
        if case .success(let parsed) = url { return parsed }
        return nil
    }

    /// The entry's tuple origin, nil for an opaque one or a failure.
    public var origin: TupleOrigin? { parsed?.origin }
}

/// How the browser walks `origins` (passkeys-spec.md §3.3 step 5, WebAuthn's validation procedure
/// for related origins): in order, keeping at most `maxLabels` distinct labels; an entry whose label
/// is new once the window is full is ignored.
public struct LabelWalk: Hashable, Sendable {
    /// Spec minimum, Chromium's exact value, and no known client goes above it (§3.3).
    /// [uncertain] §7.2: Safari's limit is unpublished; 5 is applied to every browser, the reading
    /// under which a file that works here works everywhere ROR ships.
    public static let maxLabels = 5

    public enum Status: Hashable, Sendable {
        /// The entry spends no label and is never compared (§3.3.6).
        case skipped
        /// Evaluated with this label held (`new` when the entry brought it into the window).
        case counted(label: String, new: Bool)
        /// Its label was new while `maxLabels` were held: the browser ignores the entry.
        case beyondLimit(label: String)
    }

    public let origins: [RelatedOrigin]
    /// Per origin, in order.
    public let statuses: [Status]
    /// The labels the browser keeps, in the order it met them (at most `maxLabels`).
    public let window: [String]
    /// Every distinct label the file spends, in order (the window first).
    public let allLabels: [String]

    public init(_ origins: [RelatedOrigin]) {
        var window: [String] = [], all: [String] = [], statuses: [Status] = []
        for origin in origins {
            guard let label = origin.label else {
                statuses.append(.skipped)
                continue
            }
            if !all.contains(label) { all.append(label) }
            if window.contains(label) {
                statuses.append(.counted(label: label, new: false))
            } else if window.count < Self.maxLabels {
                window.append(label)
                statuses.append(.counted(label: label, new: true))
            } else {
                statuses.append(.beyondLimit(label: label))
            }
        }
        self.origins = origins
        self.statuses = statuses
        self.window = window
        self.allLabels = all
    }

    /// The entries the browser ignores because the window was full.
    public var ignored: [RelatedOrigin] {
        zip(origins, statuses).compactMap { origin, status in
            if case .beyondLimit = status { return origin }
            return nil
        }
    }

    /// Whether the entry at `position` (in `origins`) is evaluated.
    func isCounted(_ position: Int) -> Bool {
        if case .counted = statuses[position] { return true }
        return false
    }
}
