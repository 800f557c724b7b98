/// The assetlinks.json files the fleet serves (issue #13's scenarios), public so tests can name the
/// package and keys they expect.
public enum FleetAssetLinks {
    public static let packageName = "com.example.fleet"
    /// The Play App Signing key: what apps installed from Google Play are signed with.
    public static let appSigningKey = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    /// The upload key: what the developer signs with before Google re-signs.
    public static let uploadKey = "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89"
    /// A key the app used before a rotation: what the lagging copy at Google still lists.
    public static let oldKey = "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF"
    public static let path = "/.well-known/assetlinks.json"

    /// One handle_all_urls + get_login_creds statement for the fleet's app with these keys, and rules when given.
    public static func file(_ fingerprints: [String], rules: String? = nil) -> [UInt8] {
        let list = fingerprints.map { "\"\($0)\"" }.joined(separator: ", ")
        let extensions = rules.map {
            #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \#($0)}}"#
        } ?? ""
        return Array("""
            [{"relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"],
              "target": {"namespace": "android_app", "package_name": "\(packageName)", "sha256_cert_fingerprints": [\(list)]}\(extensions)}]

            """.utf8)
    }

    public static let good = file([appSigningKey, uploadKey])
    public static let lowercase = file([appSigningKey.lowercased()])
    public static let uploadOnly = file([uploadKey])
    /// What Google still serves for `al-lag`: the key before the rotation.
    public static let beforeRotation = file([oldKey])
    public static let dynamicRules = file([appSigningKey], rules: #"[{"/": "/account/*", "exclude": true}, {"/": "/products/*"}]"#)
    /// An empty pattern: Android discards every rule and the manifest decides.
    public static let dynamicRulesInvalid = file([appSigningKey], rules: #"[{"/": "/account/*", "exclude": true}, {"/": ""}]"#)
    /// A valid list of more than 1 MiB (padding inside a string Google ignores).
    public static let large: [UInt8] = {
        let padding = String(repeating: "x", count: 1_100_000)
        return Array(#"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(packageName)", "sha256_cert_fingerprints": ["\#(appSigningKey)"]}, "padding": "\#(padding)"}]"#.utf8)
    }()
    /// A list whose statements live in an include on another host.
    public static let including: [UInt8] = Array(#"[{"include": "https://al-included.fleet.test/.well-known/more.json"}]"#.utf8)
}
