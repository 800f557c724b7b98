import Vocabulary

/// The HTTP exchanges of the two optional files (passkeys-spec.md §2, §3.7, §3.8, §6.2): info and
/// warnings only, as for their bodies.
public enum OptionalFilesTransport {
    /// `/.well-known/passkey-endpoints`: 200 and `application/json`, never a redirect.
    /// - Parameter probeStatus: the status of a well-known path that must not exist, when it was asked;
    ///   a 200 there too means a catch-all route answers for every path.
    public static func passkeyEndpoints(_ facts: TransportFacts, probeStatus: Int? = nil) -> [Finding] {
        guard facts.failure == nil, let status = facts.status else { return [] }
        let hops = facts.followedRedirects ?? []
        if (300..<400).contains(status) || !hops.isEmpty {
            let target = hops.first?.location ?? facts.redirectTarget ?? facts.header("location") ?? "another URL"
            return [PasskeyEndpointsFinding.redirect.finding(at: nil,
                "/.well-known/passkey-endpoints redirects to \(target); the file must be served directly, so clients read no links.",
                hint: "Serve the JSON at https://RP-ID/.well-known/passkey-endpoints itself.")]
        }
        if status == 404 {
            return [PasskeyEndpointsFinding.missing.finding(at: nil,
                "There is no /.well-known/passkey-endpoints (404); it is optional.",
                hint: "Publish {\"enroll\": …, \"manage\": …} to let credential managers link to your passkey pages.")]
        }
        guard status == 200 else {
            return [PasskeyEndpointsFinding.httpStatus.finding(at: nil, "/.well-known/passkey-endpoints answers \(status), not 200.",
                                                               hint: "Return 200 with the file, or 404 when you publish none.")]
        }
        var found: [Finding] = []
        let contentType = facts.header("content-type")
        if RelatedOriginsTransport.mimeEssence(contentType) != "application/json" {
            found.append(PasskeyEndpointsFinding.contentType.finding(at: nil,
                "/.well-known/passkey-endpoints is served as \(contentType ?? "nothing (no Content-Type)"), not application/json.",
                hint: "Serve it with Content-Type: application/json."))
        }
        if let probeStatus, (200..<300).contains(probeStatus) {
            found.append(PasskeyEndpointsFinding.catchAll.finding(at: nil,
                "A well-known path that cannot exist also answers \(probeStatus), so this 200 may come from a catch-all route and advertise passkeys by accident.",
                hint: "Route /.well-known/passkey-endpoints explicitly and answer 404 for unknown paths."))
        }
        return found
    }

    /// `/.well-known/change-password`: 302, 303 or 307 to the real page (200 tolerated), and a
    /// reliability probe that must not answer 2xx. `status` nil when the request got no answer.
    public static func changePassword(status: Int?, location: String?, probeStatus: Int?) -> [Finding] {
        var found: [Finding] = []
        switch status {
        case 302, 303, 307, 200:
            break
        case 301, 308:
            found.append(PasskeyEndpointsFinding.changePasswordPermanentRedirect.finding(at: nil,
                "/.well-known/change-password answers \(status ?? 0) to \(location ?? "another page"): a permanent redirect browsers cache.",
                hint: "Use 302, 303 or 307."))
        default:
            found.append(PasskeyEndpointsFinding.changePasswordMissing.finding(at: nil,
                "/.well-known/change-password " + (status.map { "answers \($0)" } ?? "gets no answer") + ": password managers cannot send people to the change-password page.",
                hint: "Redirect it (302, 303 or 307) to the page where people change their password."))
        }
        if let probeStatus, (200..<300).contains(probeStatus) {
            found.append(PasskeyEndpointsFinding.changePasswordUnreliableStatus.finding(at: nil,
                "A path that must not exist answers \(probeStatus): password managers cannot trust this site's statuses.",
                hint: "Answer 404 for paths that do not exist."))
        }
        return found
    }

    /// The path the change-password spec has clients probe: a 2xx there means statuses lie.
    public static let reliabilityProbePath = "/.well-known/resource-that-should-not-exist-whose-status-code-should-not-be-200"
}
