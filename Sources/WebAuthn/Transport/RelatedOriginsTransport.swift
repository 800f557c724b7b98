import Vocabulary

/// The findings of the HTTP exchange for `/.well-known/webauthn` (passkeys-spec.md §2, §6.1), judged
/// as a browser fetches it: redirects followed but https only, status 200, `application/json`.
/// Failures without an HTTP answer keep the shared transport codes (`fetch-failed`, `tls-untrusted`),
/// which the fetcher reports; this adds nothing for them.
public enum RelatedOriginsTransport {
    /// - Parameter needed: a web origin needs the file (it is not covered by the RP ID), which makes a
    ///   missing file an error instead of a fact.
    public static func findings(_ facts: TransportFacts, needed: Bool) -> [Finding] {
        guard facts.failure == nil, let status = facts.status else { return [] }
        var found: [Finding] = []
        let hops = facts.followedRedirects ?? []
        // [uncertain] §7.3: whether Chromium enforces https on every hop is unconfirmed; the spec's
        // history (W-HIST 241833d9) says every redirect must be https, so an http hop is an error.
        if let insecure = hops.first(where: { $0.location.lowercased().hasPrefix("http:") }) {
            found.append(WebAuthnFinding.redirectInsecure.finding(at: nil,
                "\(insecure.url) redirects (\(insecure.status)) to \(insecure.location), an http: URL; browsers fetch the file over https only, every hop included.",
                hint: "Serve the file at https://RP-ID/.well-known/webauthn directly, or redirect only to https."))
            return found
        }
        if !hops.isEmpty {
            found.append(WebAuthnFinding.redirectFollowed.finding(at: nil,
                "The file is reached through \(hops.count) redirect\(hops.count == 1 ? "" : "s") (\(hops.map { "\($0.status) → \($0.location)" }.joined(separator: ", "))); browsers follow https redirects.",
                hint: "Serve it directly: every hop is a request that can fail."))
        }
        switch status {
        case 200:
            break
        case 404, 410:
            found.append(WebAuthnFinding.missing.finding(at: nil,
                "There is no /.well-known/webauthn (\(status))" + (needed ? ": the web origins outside the RP ID's site cannot use its passkeys." : "."),
                hint: needed ? "Publish {\"origins\": [\"https://…\"]} listing the related sites." : "Only needed when sites outside the RP ID's domain use its passkeys.",
                severity: needed ? .error : .info))
            return found
        default:
            // [uncertain] §7.3: Chromium's handling of 2xx other than 200 is unconfirmed; the spec says
            // 200 after redirects, so 201/204/… are refused like any other status.
            found.append(WebAuthnFinding.httpStatus.finding(at: nil,
                "The answer is \(status), not 200; browsers read no origins from it.", hint: "Return 200 with the file."))
            return found
        }
        let contentType = facts.header("content-type")
        if mimeEssence(contentType) != "application/json" {
            found.append(WebAuthnFinding.contentType.finding(at: nil,
                contentType.map { "The file is served as \($0); browsers require application/json and reject it." }
                    ?? "The file is served without a Content-Type; browsers require application/json and reject it.",
                hint: "Serve /.well-known/webauthn with Content-Type: application/json."))
        }
        return found
    }

    /// The MIME type's essence, lower-cased, parameters dropped (Fetch: `Application/JSON; charset=utf-8`
    /// is application/json).
    static func mimeEssence(_ value: String?) -> String? {
        guard let value else { return nil }
        let essence = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return essence.trimmingCharacters(in: " \t").lowercased()
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
