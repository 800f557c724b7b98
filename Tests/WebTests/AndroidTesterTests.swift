import Testing
import Foundation
import Store
import TestSupport
@testable import Web

/// The URL tester's Android answer beside Apple's: Android 15+ by the dynamic rules, older versions
/// by verification alone (every path of a verified host), from a pasted assetlinks.json.
@Suite(.serialized) struct AndroidTesterTests {
    static let package = "com.example.shop"
    static let assetLinks = #"""
        [{"relation": ["delegate_permission/common.handle_all_urls"],
          "target": {"namespace": "android_app", "package_name": "com.example.shop",
                     "sha256_cert_fingerprints": ["AA:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11:11"]},
          "relation_extensions": {"delegate_permission/common.handle_all_urls":
            {"dynamic_app_link_components": [{"/": "/help/*", "exclude": true}, {"/": "*"}]}}}]
        """#
    static let aasa = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/*"}]}]}}"#

    func client(_ db: Database) -> WebClient {
        let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
        client.setUpAdmin()
        client.get("/tester")
        return client
    }

    /// The HTML of the element with this id, to the end of the page.
    func from(_ id: String, in page: String) -> String {
        page.range(of: "id=\"\(id)\"").map { String(page[$0.upperBound...]) } ?? ""
    }

    @Test func androidAnswersPerVersionBesideApple() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let c = client(db)
            let page = c.post("/tester", [("url", "https://example.com/help/1"), ("domain", ""), ("aasa", Self.aasa),
                                          ("package", Self.package), ("assetlinks", Self.assetLinks)])
            #expect(page.status == 200)
            let apple = from("apple-answer", in: page.bodyText), android = from("android-answer", in: page.bodyText)
            #expect(apple.contains("Opens <code>ABCDE12345.com.example.app</code>"), "Apple's answer beside")
            #expect(android.contains("<dt>Android 15+</dt><dd><strong>stays in the browser</strong>: Rule 1 is the first that matches; it excludes"),
                    "\(android.prefix(1200))")
            #expect(android.contains("<dt>Android 14 and older</dt><dd><strong>opens the app</strong>"), "every path of a verified host")
            #expect(android.contains("class=\"decider\">Rule 1:"), "the deciding rule marked")
            let shop = c.post("/tester", [("url", "https://example.com/shop/2"), ("domain", ""), ("package", ""), ("assetlinks", Self.assetLinks)])
            #expect(shop.status == 200, "Android alone answers; Apple's column says why it has none")
            #expect(from("android-answer", in: shop.bodyText).contains("<dt>Android 15+</dt><dd><strong>opens the app</strong>: Rule 2"),
                    "no package typed: every app the file verifies")
            #expect(from("apple-answer", in: shop.bodyText).contains("Choose a registered domain or paste a file."))
        }
    }

    @Test func anUnknownPackageAndAnUnreadableFileAreSaidEscaped() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let c = client(db)
            let other = c.post("/tester", [("url", "https://example.com/a"), ("domain", ""), ("aasa", Self.aasa),
                                           ("package", "<b>com.other</b>"), ("assetlinks", Self.assetLinks)]).bodyText
            let android = from("android-answer", in: other)
            #expect(android.contains("<code>&lt;b&gt;com.other&lt;/b&gt;</code>") && !other.contains("<b>com.other</b>"), "escaped")
            #expect(android.contains("<strong>stays in the browser</strong>: No valid statement grants"))
            let bad = c.post("/tester", [("url", "https://example.com/a"), ("domain", ""), ("aasa", Self.aasa), ("assetlinks", "[{,")]).bodyText
            #expect(from("android-answer", in: bad).contains("The assetlinks.json cannot be read"))
        }
    }
}
