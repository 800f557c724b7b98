import Vocabulary

/// Whether a caller origin may use an RP ID, and why (passkeys-spec.md §3.2–3.4, §4 step 3).
public struct RelatedOriginsDecision: Hashable, Sendable {
    public enum Outcome: String, Hashable, Sendable {
        /// The RP ID is the caller's host or a registrable suffix of it: no file is fetched.
        case coveredByRPID = "covered-by-rp-id"
        /// An entry in the window has the caller's origin.
        case listed
        /// The caller is not https (or http on localhost), or its host is an IP address.
        case callerInsecure = "caller-insecure"
        /// A browser refuses the whole file (W1–W4, size).
        case fileRejected = "file-rejected"
        /// No entry in the window has the caller's origin.
        case notListed = "not-listed"
        /// An entry has the caller's origin, but its label came after the window was full.
        case beyondLimit = "beyond-limit"
    }

    public var outcome: Outcome
    public var allowed: Bool { outcome == .coveredByRPID || outcome == .listed }
    /// One or two sentences for people: the decision and what decided it.
    public var reason: String
    /// The labels the browser held when it decided, in order (empty when it read no file).
    public var labels: [String]
    /// The entry that decided (the match, or the one beyond the limit).
    public var entry: OriginEntry?
}

extension RelatedOriginsDecision {
    /// Decides for `caller` (any URL; its origin is used) against the file read into `reading`.
    /// [uncertain] §7.4: a non-string element rejects the file here even after a matching entry, as
    /// the spec says (Chromium notices it only when no earlier entry matched): the stricter reading
    /// is the one that holds in every supporting browser.
    public static func decide(rpID: RelyingPartyID, caller: OriginURL, reading: RelatedOriginsReading,
                              rules: DomainRules) -> RelatedOriginsDecision {
        guard let origin = caller.origin, let host = caller.domain, isSecure(origin) else {
            return RelatedOriginsDecision(outcome: .callerInsecure,
                reason: "\(caller.origin?.description ?? caller.scheme + ":") cannot use WebAuthn at all: a caller must be an https origin "
                    + "(or http on localhost) with a domain, not an IP address.", labels: [], entry: nil)
        }
        if rpID.covers(host: host) {
            return RelatedOriginsDecision(outcome: .coveredByRPID,
                reason: "\(origin) may use the RP ID \(rpID) directly: \(host == rpID.domain ? "it is the RP ID's own host" : "the RP ID is a registrable suffix of its host"), "
                    + "so the browser fetches no related-origins file.", labels: [], entry: nil)
        }
        if let rejection = reading.rejection {
            return RelatedOriginsDecision(outcome: .fileRejected,
                reason: "Browsers reject https://\(rpID)/.well-known/webauthn (\(rejection)), so \(origin) may not use the RP ID \(rpID).",
                labels: [], entry: nil)
        }
        let walk = LabelWalk(reading.entries.map { RelatedOrigin($0, rules: rules) })
        var held: [String] = []
        for (position, related) in walk.origins.enumerated() {
            guard case .counted(let label, let new) = walk.statuses[position] else { continue }
            if new { held.append(label) }
            if related.origin == origin {
                return RelatedOriginsDecision(outcome: .listed,
                    reason: "\(origin) is listed at \(related.entry.location.pointer) (label \"\(label)\", \(ordinal(held.firstIndex(of: label) ?? 0)) of at most \(LabelWalk.maxLabels)), "
                        + "so browsers with Related Origin Requests let it use the RP ID \(rpID).",
                    labels: held, entry: related.entry)
            }
        }
        if let position = walk.origins.indices.first(where: { !walk.isCounted($0) && walk.origins[$0].origin == origin }),
           case .beyondLimit(let label) = walk.statuses[position] {
            let entry = walk.origins[position].entry
            return RelatedOriginsDecision(outcome: .beyondLimit,
                reason: "\(origin) is listed at \(entry.location.pointer), but its label \"\(label)\" comes after the browser's limit of "
                    + "\(LabelWalk.maxLabels) labels (\(walk.window.joined(separator: ", "))), so browsers ignore the entry. "
                    + "Move it before the entries of other labels, or drop labels.",
                labels: walk.window, entry: entry)
        }
        return RelatedOriginsDecision(outcome: .notListed,
            reason: "\(origin) is not among the origins https://\(rpID)/.well-known/webauthn relates to the RP ID \(rpID)"
                + nearMiss(origin, walk: walk) + ".", labels: walk.window, entry: nil)
    }

    /// https, or http on `localhost` / `*.localhost` (secure contexts), with a domain host.
    static func isSecure(_ origin: TupleOrigin) -> Bool {
        if origin.scheme == "https" { return true }
        return origin.scheme == "http" && (origin.host == "localhost" || origin.host.hasSuffix(".localhost"))
    }

    /// An entry that differs from the caller only in a way people miss (scheme, port, trailing dot,
    /// a `*`), in words; empty when there is none.
    private static func nearMiss(_ origin: TupleOrigin, walk: LabelWalk) -> String {
        for related in walk.origins {
            guard let parsed = related.parsed, let domain = parsed.domain else { continue }
            let bare = domain.hasSuffix(".") ? String(domain.dropLast()) : domain
            let text = "\"\(related.entry.text)\" at \(related.entry.location.pointer)"
            if bare == origin.host && domain != bare { return "; \(text) has a trailing dot, which makes it another origin" }
            if bare == origin.host && parsed.scheme != origin.scheme { return "; \(text) has the scheme \(parsed.scheme), which never matches \(origin.scheme)" }
            if bare == origin.host && parsed.port != origin.port { return "; \(text) names another port" }
            if bare.hasPrefix("*."), origin.host.hasSuffix(bare.dropFirst()) {
                return "; \(text) is no wildcard: * is a literal character, so list \(origin) itself"
            }
        }
        return ""
    }

    private static func ordinal(_ index: Int) -> String {
        ["first", "second", "third", "fourth", "fifth"].indices.contains(index) ? ["first", "second", "third", "fourth", "fifth"][index] : "#\(index + 1)"
    }
}
