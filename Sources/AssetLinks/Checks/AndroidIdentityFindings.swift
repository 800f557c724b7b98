import Vocabulary

extension AndroidCheckEvaluation {
    /// What one expected app's identity in a file comes to, as findings: its package missing, or named
    /// without `handle_all_urls`, only its upload key listed, a key of it missing. The one wording of
    /// these problems: a check's findings (`expectationFindings`, which the domain's verdict and
    /// `verify-app` read) and an app's Android link (Monitor's `AppLinkVerdict`) both come from here,
    /// so the domain page, the app page and the gate say the same thing in the same words.
    /// - Parameters:
    ///   - url: the assetlinks.json the identity was read from.
    ///   - fileRead: false when Google reads no statement there (nothing served, or nothing readable).
    public static func identityFindings(_ identity: AndroidIdentityResult, url: String, fileRead: Bool) -> [Finding] {
        let package = identity.packageName
        // A result stored before `grantsHandleAllURLs` was kept knows only the expected keys' grants.
        guard identity.grantsHandleAllURLs ?? identity.handleAllURLs else {
            return [(identity.named ? AndroidCheckFinding.handleAllURLsMissing : AndroidCheckFinding.expectedPackageMissing).finding(
                at: nil,
                identity.named
                    ? "\(package) is named in \(url), but no valid statement grants it delegate_permission/common.handle_all_urls; its App Links do not verify."
                    : "\(url) grants nothing to \(package)\(fileRead ? "" : " (Google reads no statement there)"); its App Links do not verify.",
                hint: "Add a statement with relation delegate_permission/common.handle_all_urls, target android_app \(package) and its signing-key fingerprints.")]
        }
        let missing = identity.missingFingerprints
        let upload = Set(identity.uploadKeys), grantedExpected = identity.grantedFingerprints
        if !missing.isEmpty, !upload.isEmpty, !grantedExpected.isEmpty, grantedExpected.allSatisfy(upload.contains),
           missing.contains(where: { !upload.contains($0) }) {
            return [AndroidCheckFinding.fingerprintUploadKeyOnly.finding(at: nil,
                "\(url) lists only the upload key of \(package), not its app-signing key \(missing.filter { !upload.contains($0) }.joined(separator: ", ")); apps installed from Google Play are signed with the app-signing key and do not verify.",
                hint: "Add the SHA-256 of the app-signing key (Play Console › Test and release › App integrity › App signing).")]
        }
        guard !missing.isEmpty else { return [] }
        return [AndroidCheckFinding.expectedFingerprintMissing.finding(at: nil,
            "\(url) grants handle_all_urls to \(package), but not with \(missing.joined(separator: ", ")); builds signed with \(missing.count == 1 ? "that key" : "those keys") do not verify.",
            hint: "Add every signing key in use (during a key rotation, both the old and the new key).")]
    }

    /// Google's `assetlinks:check` saying an expected identity is not linked: the one wording of it,
    /// for the check's findings and an app's Android link.
    public static func notLinkedFinding(packageName: String, fingerprint: String, relation: String) -> Finding {
        AndroidCheckFinding.googleNotLinked.finding(at: nil,
            "Google's API says \(packageName) with \(fingerprint) is not linked to this site for \(relation); devices that rely on Google's verdict do not verify it.",
            hint: "See the other findings; after a fix, Google's answer follows within its maxAge.")
    }
}
