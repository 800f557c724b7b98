/// An Android app a domain's assetlinks.json must verify (issue #13's expected identity): one type
/// from the registry through Store's rows (`expected_android_apps`) to the AssetLinks core's check.
public struct AndroidAppExpectation: Hashable, Sendable, Codable {
    public var packageName: String
    /// Every fingerprint that must be granted `handle_all_urls` (upper-case, colon-separated).
    public var fingerprints: [String]
    /// The subset of `fingerprints` that are upload or debug keys: listing only these is the Play
    /// App Signing mistake of spec §8 (`fingerprint-upload-key-only`).
    public var uploadKeys: [String]
    /// Credential sharing with the site is expected too (`get_login_creds`).
    public var loginCredentials: Bool

    public init(packageName: String, fingerprints: [String], uploadKeys: [String] = [], loginCredentials: Bool = false) {
        self.packageName = packageName
        self.fingerprints = fingerprints.map { $0.uppercased() }
        self.uploadKeys = uploadKeys.map { $0.uppercased() }
        self.loginCredentials = loginCredentials
    }
}
