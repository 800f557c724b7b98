import Foundation
import Testing

/// The assetlinks.json side of `validate`, `match`, `match --batch --android` and `diff`: output shape
/// and exit status are an API (issue #12), pinned by running the real binary.
@Suite struct AndroidCommandTests {
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static func file(_ rules: String = #"[{"/": "/account/*", "exclude": true}, {"/": "/p/*"}, {"/": "*", "exclude": true}]"#) -> String {
        """
        [{"relation": ["delegate_permission/common.handle_all_urls"],
          "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\(fingerprint)"]},
          "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \(rules)}}},
         {"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "HTTPS://Shop.Example.com:443"}}]
        """
    }

    @Test func validateDetectsAssetlinksAndPrintsTheHonouredStatements() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("links", Self.file())
        let outcome = try BuiltCommand.run(["validate", path, "--json"])
        #expect(outcome.status == 0, "info findings only")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["findings", "statements"])
        let statements = try #require(json["statements"] as? [[String: Any]])
        #expect(statements.count == 2)
        let app = try #require(statements.first?["target"] as? [String: Any])
        #expect(statements.first?["relation"] as? String == "delegate_permission/common.handle_all_urls")
        #expect(app["namespace"] as? String == "android_app" && app["package_name"] as? String == "com.example.shop")
        #expect(app["sha256_cert_fingerprints"] as? [String] == [Self.fingerprint])
        #expect(statements.last?["target"] as? [String: String] == ["namespace": "web", "site": "https://shop.example.com"])
        let finding = try #require((json["findings"] as? [[String: Any]])?.first)
        #expect(Set(finding.keys) == ["code", "severity", "location", "message", "hint", "affects"])
    }

    /// The JSON of `validate` and `match` to the byte, as CI jobs parse it: keys, nesting, the null
    /// of a finding without a location, the keys a package line leaves out.
    @Test func validateAndMatchJSONToTheByte() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("links", Self.file())
        #expect(try BuiltCommand.run(["validate", path, "--json"]).stdout == #"""
            {
              "findings" : [
                {
                  "affects" : "Android 14 and lower, and devices without Google services (they use the manifest only)",
                  "code" : "dynamic-rules-min-os",
                  "hint" : "Keep the manifest's intent filters as narrow as the paths that must work everywhere.",
                  "location" : null,
                  "message" : "The file has dynamic rules: only Android 15+ with Google services reads them; older devices open every path the app's manifest claims.",
                  "severity" : "info"
                }
              ],
              "statements" : [
                {
                  "relation" : "delegate_permission/common.handle_all_urls",
                  "target" : {
                    "namespace" : "android_app",
                    "package_name" : "com.example.shop",
                    "sha256_cert_fingerprints" : [
                      "\#(Self.fingerprint)"
                    ]
                  }
                },
                {
                  "relation" : "delegate_permission/common.get_login_creds",
                  "target" : {
                    "namespace" : "web",
                    "site" : "https://shop.example.com"
                  }
                }
              ]
            }

            """#)
        #expect(try BuiltCommand.run(["match", path, "https://shop.example.com/p/1", "--package", "com.example.shop", "--json"]).stdout == #"""
            {
              "android_version" : 15,
              "packages" : [
                {
                  "decision" : "match",
                  "opens_app" : true,
                  "package_name" : "com.example.shop",
                  "rule" : 1,
                  "rule_text" : "{\"/\": \"/p/*\"}",
                  "statement" : 0,
                  "summary" : "Rule 2 is the first that matches; it allows the URL, so it opens the app on Android 15+."
                }
              ],
              "url" : "https://shop.example.com/p/1"
            }

            """#)
        #expect(try BuiltCommand.run(["match", path, "https://shop.example.com/a", "--package", "com.other", "--android-version", "14", "--json"]).stdout == #"""
            {
              "android_version" : 14,
              "packages" : [
                {
                  "decision" : "not_verified",
                  "opens_app" : false,
                  "package_name" : "com.other",
                  "summary" : "No valid statement grants delegate_permission/common.handle_all_urls to com.other, so Android does not verify the app for this host; the link opens in the browser."
                }
              ],
              "url" : "https://shop.example.com/a"
            }

            """#)
    }

    @Test func validateExitStatusAndForcedPlatform() throws {
        let dir = try ScratchDirectory()
        let warning = try dir.write("w.json", Self.file().replacingOccurrences(of: "HTTPS://", with: "http://"))
        #expect(try BuiltCommand.run(["validate", warning]).status == 1)
        let broken = try dir.write("b.json", Self.file().replacingOccurrences(of: "]}}},", with: "],}}},"))
        let outcome = try BuiltCommand.run(["validate", broken])
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains("assetlinks-invalid-json") && outcome.stdout.contains("Google honours 0 statements"))
        // An object is Apple's file unless the platform is forced, or it holds a statement's members
        // (issue #29: Android's file in the wrong shape).
        let object = try dir.write("o.json", "{\"applinks\": {\"details\": []}}")
        #expect(!(try BuiltCommand.run(["validate", object]).stdout.contains("assetlinks-not-array")))
        #expect(try BuiltCommand.run(["validate", object, "--platform", "android"]).stdout.contains("assetlinks-not-array"))
        let statement = try dir.write("s.json", "{\"relation\": []}")
        #expect(try BuiltCommand.run(["validate", statement]).stdout.contains("assetlinks-not-array"))
    }

    /// `validate FILE` knows a file by its name first, then by its content (issue #29): an
    /// assetlinks.json holding one statement object is Android's file in the wrong shape, reported as
    /// such, not a broken apple-app-site-association; a statements list wrapped in an object is too.
    @Test func validateKnowsTheFileByItsNameThenItsShape() throws {
        let statement = #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\#(Self.fingerprint)"]}}"#
        let byNameDir = try ScratchDirectory(), appleDir = try ScratchDirectory()
        let named = try byNameDir.write("assetlinks.json", statement)
        let byName = try BuiltCommand.run(["validate", named])
        #expect(byName.status == 2)
        #expect(byName.stdout.contains("assetlinks-not-array") && byName.stdout.contains("one statement object (relation, target)")
                && byName.stdout.contains("Wrap the statement in [ ]"), "\(byName.stdout)")
        #expect(!byName.stdout.contains("applinks") && !byName.stdout.contains("apple-app-site-association"), "not judged as Apple's file: \(byName.stdout)")

        // Unnamed, the content tells: a statement's members, or a statements member.
        let dir = try ScratchDirectory()
        let unnamed = try BuiltCommand.run(["validate", try dir.write("download.json", statement)])
        #expect(unnamed.stdout.contains("one statement object (relation, target)"), "\(unnamed.stdout)")
        let wrapped = try BuiltCommand.run(["validate", try dir.write("wrapped.json", #"{"statements": [\#(statement)]}"#)])
        #expect(wrapped.status == 2 && wrapped.stdout.contains("an object holding \"statements\""), "\(wrapped.stdout)")

        // The name wins over the content: an array named apple-app-site-association is Apple's file.
        let appleNamed = try appleDir.write("apple-app-site-association", "[\(statement)]")
        let apple = try BuiltCommand.run(["validate", appleNamed])
        #expect(!apple.stdout.contains("Google honours"), "judged as Apple's file: \(apple.stdout)")
        #expect(try BuiltCommand.run(["validate", appleNamed, "--platform", "android"]).stdout.contains("Google honours 1 statement"))
    }

    @Test func matchDecidesAndExplains() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("assetlinks.json", Self.file())
        let opens = try BuiltCommand.run(["match", path, "https://shop.example.com/p/1", "--package", "com.example.shop"])
        #expect(opens.status == 0)
        #expect(opens.stdout.hasPrefix("https://shop.example.com/p/1 on Android 15+:\n  com.example.shop  match  rule 2 of statement 1  {\"/\": \"/p/*\"}\n"))
        let excluded = try BuiltCommand.run(["match", path, "https://shop.example.com/account/x", "--package", "com.example.shop", "--explain"])
        #expect(excluded.status == 1)
        #expect(excluded.stdout.contains("✓ rule 1 {\"/\": \"/account/*\", \"exclude\": true}"))
        let older = try BuiltCommand.run(["match", path, "https://shop.example.com/account/x", "--package", "com.example.shop", "--android-version", "14", "--json"])
        #expect(older.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(older.stdout.utf8)) as? [String: Any])
        let line = try #require((json["packages"] as? [[String: Any]])?.first)
        #expect(line["decision"] as? String == "verified" && line["opens_app"] as? Bool == true)
        let unknown = try BuiltCommand.run(["match", path, "https://shop.example.com/p/1", "--package", "com.other"])
        #expect(unknown.status == 1 && unknown.stdout.contains("not_verified"))
        let unusable = try dir.write("bad.json", "[1,]")
        #expect(try BuiltCommand.run(["match", unusable, "https://shop.example.com/", "--package", "a.b"]).status == 2)
    }

    @Test func batchAnswersEveryLine() throws {
        let compact = Self.file().replacingOccurrences(of: "\n", with: " ")
        let dropped = Self.file(#"[{"/": ""}]"#).replacingOccurrences(of: "\n", with: " ")
        let lines = [
            #"{"id": 1, "assetlinks": \#(compact), "packageName": "com.example.shop", "url": "https://shop.example.com/p/9"}"#,
            #"{"id": 2, "assetlinks": \#(compact), "packageName": "com.example.shop", "url": "https://shop.example.com/account/9"}"#,
            #"{"id": 3, "assetlinks": \#(Self.file(#"[{"/": "/a"}]"#).replacingOccurrences(of: "\n", with: " ")), "packageName": "com.example.shop", "url": "https://shop.example.com/b"}"#,
            #"{"id": 4, "assetlinks": \#(dropped), "packageName": "com.example.shop", "url": "https://shop.example.com/b"}"#,
            #"{"id": 5, "assetlinks": "[{\"relation\": [],}]", "packageName": "a.b", "url": "https://h.example/"}"#,
            #"{"id": 6, "assetlinks": \#(compact), "packageName": "com.other", "url": "https://shop.example.com/p/9"}"#,
            "not json",
            #"{"id": 8, "assetlinks": [], "url": "https://h.example/"}"#,
        ]
        let outcome = try BuiltCommand.run(["match", "--batch", "--android"], stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stdout == """
            {"id":1,"decision":"match"}
            {"id":2,"decision":"exclude"}
            {"id":3,"decision":"no_match"}
            {"id":4,"decision":"rules_dropped"}
            {"id":5,"error":"\\"assetlinks\\" is not a statement list Google would read (invalid JSON or not an array)"}
            {"id":6,"decision":"no_match","verified":false}
            {"id":null,"error":"the line is not valid JSON"}
            {"id":8,"error":"\\"packageName\\" is missing or not a string"}

            """)
    }

    /// Each way a line can be refused, by name; `package_name` stands for `packageName`, and the file
    /// may come as its text in a JSON string or as any JSON value (Google's reader judges it).
    @Test func batchRefusesEachBadLineByName() throws {
        let compact = Self.file().replacingOccurrences(of: "\n", with: " ")
        let fileText = String(decoding: try JSONSerialization.data(withJSONObject: [compact]), as: UTF8.self).dropFirst().dropLast()
        let lines = [
            #"[]"#,
            #"{"id": 2, "packageName": "com.example.shop", "url": "https://shop.example.com/p/9"}"#,
            #"{"id": 3, "assetlinks": null, "packageName": "com.example.shop", "url": "https://shop.example.com/p/9"}"#,
            #"{"id": 4, "assetlinks": \#(compact), "package_name": "com.example.shop", "url": "https://shop.example.com/p/9"}"#,
            #"{"id": 5, "assetlinks": \#(compact), "packageName": "com.example.shop"}"#,
            #"{"id": 6, "assetlinks": \#(fileText), "packageName": "com.example.shop", "url": "https://shop.example.com/account/9"}"#,
            #"{"id": 7, "assetlinks": {"relation": []}, "packageName": "com.example.shop", "url": "https://shop.example.com/p/9"}"#,
            #"{"id": 8, "assetlinks": 5, "packageName": 5, "package_name": "com.example.shop", "url": "https://shop.example.com/p/9"}"#,
        ]
        let outcome = try BuiltCommand.run(["match", "--batch", "--android"], stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stdout == """
            {"id":null,"error":"the line is not a JSON object"}
            {"id":2,"error":"\\"assetlinks\\" is missing"}
            {"id":3,"error":"\\"assetlinks\\" is missing"}
            {"id":4,"decision":"match"}
            {"id":5,"error":"\\"url\\" is missing or not a string"}
            {"id":6,"decision":"exclude"}
            {"id":7,"error":"\\"assetlinks\\" is not a statement list Google would read (invalid JSON or not an array)"}
            {"id":8,"error":"\\"packageName\\" is missing or not a string"}

            """)
    }

    @Test func diffComparesBehaviour() throws {
        let dir = try ScratchDirectory()
        let old = try dir.write("old.json", Self.file())
        let same = try dir.write("same.json", Self.file().replacingOccurrences(of: "\n", with: " "))
        let new = try dir.write("new.json", Self.file(#"[{"/": "/p/*"}, {"/": "*"}]"#))
        #expect(try BuiltCommand.run(["diff", old, same]).status == 0)
        let changed = try BuiltCommand.run(["diff", old, new, "--url", "https://shop.example.com/account/1"])
        #expect(changed.status == 1)
        #expect(changed.stdout == """
            + rule {"/": "*"} for com.example.shop
            - rule {"/": "/account/*", "exclude": true} for com.example.shop
            - rule {"/": "*", "exclude": true} for com.example.shop
            ~ https://shop.example.com/account/1 for com.example.shop: exclude → match

            """)
        let json = try BuiltCommand.run(["diff", old, new, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["behaviourally_equal"] as? Bool == false)
        let apple = try dir.write("aasa.json", #"{"applinks": {"details": []}}"#)
        #expect(try BuiltCommand.run(["diff", old, apple]).status == 64)
    }
}
