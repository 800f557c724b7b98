/// One host of the fleet: which certificate it presents, what it serves, and what the fake CDN
/// says about it.
struct FleetSite {
    enum Certificate { case wildcard, expired, otherName, selfSigned }
    enum CDNAnswer {
        /// The CDN serves this copy with Apple's success headers.
        case copy([UInt8])
        /// The CDN answers 404 with `Apple-Failure-Reason`.
        case failure(String)
        /// The CDN serves this copy with Apple's success headers and `Apple-From` listing these URLs:
        /// what it has been seen to answer for an apex that redirects to its www host.
        case followedCopy([UInt8], from: [String])
    }
    struct File {
        var path: String
        var body: [UInt8]
        /// nil: no Content-Type header at all.
        var contentType: String?
    }

    var name: String
    var certificate: Certificate = .wildcard
    var files: [File] = []
    /// Extra nginx directives at server level (redirects, user-agent rules, proxying).
    var directives: String = ""
    var cdn: CDNAnswer
    /// False for the hosts that misbehaving servers answer instead of nginx.
    var servedByNginx = true
    /// What the fake Digital Asset Links API answers for this host (default: it reads the origin's file).
    var google: FakeDigitalAssetLinksAPI.Answer = .mirror([])

    static let wellKnown = "/.well-known/apple-app-site-association"
    static let root = "/apple-app-site-association"

    static func json(_ path: String, _ body: [UInt8]) -> File { File(path: path, body: body, contentType: "application/json") }
}

extension FleetSite {
    /// Every scenario of issue 4, by host label (`good` → `good.fleet.test`).
    static func scenarios(signed: [UInt8], dripPort: Int) -> [FleetSite] {
        let good = FleetFiles.good
        let notServed = "SWCERR00101 Bad HTTP Response"
        var sites: [FleetSite] = [
            FleetSite(name: "good", files: [json(wellKnown, good)], cdn: .copy(FleetFiles.goodReformatted)),
            FleetSite(name: "both", files: [json(wellKnown, good), json(root, good)], cdn: .copy(good)),
            FleetSite(name: "disagree", files: [json(wellKnown, good), json(root, FleetFiles.previous)], cdn: .copy(good)),
            FleetSite(name: "rootonly", files: [json(root, good)], cdn: .copy(good)),
            FleetSite(name: "redirecthttp", directives: "return 301 http://good.fleet.test$request_uri;",
                      cdn: .failure("\(notServed): 301 Moved Permanently")),
            FleetSite(name: "notfound", cdn: .failure("\(notServed): 404 Not Found")),
            FleetSite(name: "apple403", files: [json(wellKnown, good)],
                      directives: #"if ($http_user_agent ~* "AASA-Bot") { return 403; }"#,
                      cdn: .failure("\(notServed): 403 Forbidden")),
            FleetSite(name: "spa", files: [FleetSite.File(path: "/index.html", body: FleetFiles.spaPage, contentType: "text/html")],
                      directives: "location / { try_files /index.html =404; }",
                      cdn: .failure("SWCERR00103 Unable to parse JSON")),
            FleetSite(name: "octet", files: [File(path: wellKnown, body: good, contentType: "application/octet-stream")], cdn: .copy(good)),
            FleetSite(name: "notype", files: [File(path: wellKnown, body: good, contentType: nil)], cdn: .copy(good)),
            FleetSite(name: "big", files: [json(wellKnown, FleetFiles.large)], cdn: .failure("SWCERR00102 Response too large")),
            FleetSite(name: "gzip", files: [json(wellKnown, FleetFiles.compressible)],
                      directives: "gzip on; gzip_types *; gzip_min_length 1;", cdn: .copy(FleetFiles.compressible)),
            // Answers 304 to any conditional request, whatever it asks: a server (or a cache in front of
            // it) whose 304 is wrong. Apple's fetcher never asks conditionally, so it sees the new file.
            FleetSite(name: "stale304", files: [json(wellKnown, good)], directives: #"if ($http_if_none_match) { return 304; }"#,
                      cdn: .copy(good)),
            FleetSite(name: "bom", files: [json(wellKnown, [0xEF, 0xBB, 0xBF] + good)], cdn: .copy(good)),
            FleetSite(name: "invalid", files: [json(wellKnown, FleetFiles.invalid)], cdn: .failure("SWCERR00103 Unable to parse JSON")),
            FleetSite(name: "signed", files: [File(path: wellKnown, body: signed, contentType: "application/pkcs7-mime")], cdn: .copy(signed)),
            FleetSite(name: "expired", certificate: .expired, files: [json(wellKnown, good)],
                      cdn: .failure("SWCERR00201 Bad server trust")),
            FleetSite(name: "wrongname", certificate: .otherName, files: [json(wellKnown, good)],
                      cdn: .failure("SWCERR00201 Bad server trust")),
            FleetSite(name: "selfsigned", certificate: .selfSigned, files: [json(wellKnown, good)],
                      cdn: .failure("SWCERR00201 Bad server trust")),
            FleetSite(name: "stale", files: [json(wellKnown, good)], cdn: .copy(FleetFiles.previous)),
            FleetSite(name: "hostile", files: [json(wellKnown, FleetFiles.hostile)], cdn: .copy(FleetFiles.hostile)),
            FleetSite(name: "drip",
                      directives: "location / { proxy_pass http://127.0.0.1:\(dripPort); proxy_buffering off; proxy_read_timeout 120s; }",
                      cdn: .failure("SWCERR00301 Timeout")),
            FleetSite(name: "hang", cdn: .failure("SWCERR00301 Timeout"), servedByNginx: false),
            FleetSite(name: "reset", cdn: .failure("SWCERR00301 Timeout"), servedByNginx: false),
        ]
        // The apex redirects to its www host, and Apple's CDN followed it: its copy names both URLs.
        let apex = "https://redirectcdn.fleet.test\(wellKnown)", www = "https://www-redirectcdn.fleet.test\(wellKnown)"
        sites.append(FleetSite(name: "redirectcdn", directives: "return 308 \(www);",
                               cdn: .followedCopy(FleetFiles.goodReformatted, from: [apex, www])))
        sites.append(FleetSite(name: "www-redirectcdn", files: [json(wellKnown, good)], cdn: .copy(FleetFiles.goodReformatted)))
        // A redirect to itself: no number of hops reaches a file.
        sites.append(FleetSite(name: "redirectloop", directives: "return 302 https://redirectloop.fleet.test$request_uri;",
                               cdn: .failure("\(notServed): 302")))
        for code in [301, 302, 307, 308] {
            sites.append(FleetSite(name: "redirect\(code)",
                                   directives: "return \(code) https://good.fleet.test$request_uri;",
                                   cdn: .failure("\(notServed): \(code)")))
        }
        return sites
    }
}

extension FleetSite {
    /// The assetlinks.json scenarios of issue #13 (`al-…` hosts) and what the fake Google API says of each.
    static func androidScenarios() -> [FleetSite] {
        let path = FleetAssetLinks.path
        let cdn = CDNAnswer.failure("SWCERR00101 Bad HTTP Response: 404 Not Found")
        func site(_ name: String, _ body: [UInt8], type: String? = "application/json", directives: String = "",
                  google: FakeDigitalAssetLinksAPI.Answer = .mirror([])) -> FleetSite {
            FleetSite(name: name, files: [File(path: path, body: body, contentType: type)], directives: directives, cdn: cdn, google: google)
        }
        return [
            site("al-good", FleetAssetLinks.good),
            site("al-lowercase", FleetAssetLinks.lowercase),
            site("al-uploadkey", FleetAssetLinks.uploadOnly),
            // The apex answers with a redirect to www, as a CDN's "canonical host" rule does.
            FleetSite(name: "al-redirect", directives: "location = \(path) { return 301 https://www-al-redirect.fleet.test$request_uri; }",
                      cdn: cdn, google: .fetchFailed(["ERROR_CODE_REDIRECT"])),
            site("www-al-redirect", FleetAssetLinks.good),
            FleetSite(name: "al-spa", files: [File(path: "/index.html", body: FleetFiles.spaPage, contentType: "text/html")],
                      directives: "location / { try_files /index.html =404; }", cdn: cdn, google: .fetchFailed(["ERROR_CODE_MALFORMED_CONTENT"])),
            site("al-octet", FleetAssetLinks.good, type: "application/octet-stream", google: .mirror(["ERROR_CODE_WRONG_CONTENT_TYPE"])),
            site("al-big", FleetAssetLinks.large, google: .fetchFailed(["ERROR_CODE_TOO_LARGE"])),
            site("al-blocked", FleetAssetLinks.good, directives: #"if ($http_user_agent ~* "GoogleAssociationService") { return 403; }"#,
                 google: .fetchFailed(["ERROR_CODE_FETCH_ERROR"])),
            site("al-dynamic", FleetAssetLinks.dynamicRules),
            site("al-dynamic-invalid", FleetAssetLinks.dynamicRulesInvalid),
            site("al-lag", FleetAssetLinks.good, google: .frozen(FleetAssetLinks.beforeRotation)),
            site("al-changing", FleetAssetLinks.good),
            site("al-includes", FleetAssetLinks.including),
            // robots.txt keeps every crawler out of /.well-known/ (a common "hide the internals" rule).
            FleetSite(name: "al-robots", files: [json(path, FleetAssetLinks.good),
                                                 File(path: "/robots.txt", body: Array("User-agent: *\nDisallow: /.well-known/\n".utf8),
                                                      contentType: "text/plain")], cdn: cdn),
            // The fully-qualified form (Host: al-dot.fleet.test.) is routed elsewhere, as an exact-match host rule does.
            site("al-dot", FleetAssetLinks.good, directives: #"if ($http_host ~ "\.$") { return 404; }"#),
            FleetSite(name: "al-included", files: [json("/.well-known/more.json", FleetAssetLinks.file([FleetAssetLinks.appSigningKey]))], cdn: cdn),
        ]
    }
}

extension FleetSite {
    /// The web passkeys scenarios of issue #33 (`wa-…` hosts, each an RP ID): the related-origins file
    /// as browsers fetch it, and passkey-endpoints beside it.
    static func webScenarios() -> [FleetSite] {
        let webauthn = "/.well-known/webauthn"
        let cdn = CDNAnswer.failure("SWCERR00101 Bad HTTP Response: 404 Not Found")
        let good = Array(#"{"origins": ["https://shop.example.com", "https://www.example.co.uk", "https://brand.example.org"]}"#.utf8)
        // Six registrable-domain labels: browsers keep five and ignore https://six.example.
        let sixLabels = Array(#"{"origins": ["https://one.example", "https://two.example", "https://three.example", "https://four.example", "https://five.example", "https://six.example"]}"#.utf8)
        let endpoints = Array(#"{"enroll": "https://wa-good.fleet.test/passkeys/new", "manage": "https://wa-good.fleet.test/passkeys"}"#.utf8)
        return [
            FleetSite(name: "wa-good", files: [json(webauthn, good), json("/.well-known/passkey-endpoints", endpoints)], cdn: cdn),
            FleetSite(name: "wa-plain", files: [File(path: webauthn, body: good, contentType: "text/plain")], cdn: cdn),
            // The file moved to the apex over plain http, as a "canonical host" rule written for http does.
            FleetSite(name: "wa-redirecthttp", directives: "location = \(webauthn) { return 301 http://wa-good.fleet.test\(webauthn); }", cdn: cdn),
            FleetSite(name: "wa-sixlabels", files: [json(webauthn, sixLabels)], cdn: cdn),
            // An https redirect to another host: browsers follow it (each hop resolved and judged anew).
            FleetSite(name: "wa-redirect", directives: "location = \(webauthn) { return 302 https://wa-good.fleet.test\(webauthn); }", cdn: cdn),
        ]
    }
}
