import Foundation
import Testing

/// `aasa-monitor match` and `match --batch` are APIs for CI jobs and other tools: output and exit
/// status are pinned here by running the real binary.
@Suite struct MatchCommandTests {
    static let overview = """
    {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"], "components": [
      {"#": "no_universal_links", "exclude": true},
      {"/": "/buy/*"},
      {"/": "/help/website/*", "exclude": true},
      {"/": "/help/*", "?": {"articleNumber": "????"}}]}]},
     "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}
    """

    @Test func listsAppsInPrecedenceOrder() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("aasa.json", Self.overview)
        let outcome = try BuiltCommand.run(["match", path, "https://example.com/buy/1"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == """
            https://example.com/buy/1 opens ABCDE12345.com.example.app
              ABCDE12345.com.example.app   match     rule 2 of details entry 1  {"/": "/buy/*"}
              ABCDE12345.com.example.app2  match     rule 2 of details entry 1  {"/": "/buy/*"}

            """)
    }

    @Test func oneAppExitStatusFollowsTheDecision() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("aasa.json", Self.overview)
        let app = "ABCDE12345.com.example.app"
        let match = try BuiltCommand.run(["match", path, "https://example.com/buy/1", "--app", app])
        #expect(match.status == 0)
        #expect(match.stdout == "match: \(app) (rule 2 of details entry 1: {\"/\": \"/buy/*\"})\n")
        let exclude = try BuiltCommand.run(["match", path, "https://example.com/help/website/x", "--app", app])
        #expect(exclude.status == 1)
        #expect(exclude.stdout.hasPrefix("exclude: \(app) (rule 3 of details entry 1"))
        let none = try BuiltCommand.run(["match", path, "https://example.com/sell/1", "--app", app])
        #expect(none.status == 1)
        #expect(none.stdout == "no_match: \(app)\n")
    }

    @Test func explainNamesTheFailingComponent() throws {
        let outcome = try BuiltCommand.run(["match", "-", "https://example.com/help/x?articleNumber=123",
                                            "--app", "ABCDE12345.com.example.app", "--explain"],
                                           stdin: Array(Self.overview.utf8))
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("Closest: rule 4 of details entry 1"))
        #expect(outcome.stdout.contains("Query item \"articleNumber\" is \"123\", which does not match \"????\"."))
        #expect(outcome.stdout.contains("caseSensitive  true  (Apple's built-in default)"))
    }

    @Test func domainOutsideTheFileMatchesNothing() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("aasa.json", Self.overview)
        let outcome = try BuiltCommand.run(["match", path, "https://other.example.org/buy/1", "--domain", "example.com"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.hasPrefix("https://other.example.org/buy/1: the host is not example.com"))
        let subdomain = try BuiltCommand.run(["match", path, "https://www.example.com/buy/1", "--domain", "example.com"])
        #expect(subdomain.status == 0)
    }

    @Test func jsonOutput() throws {
        let outcome = try BuiltCommand.run(["match", "-", "https://example.com/buy/1", "--json", "--explain",
                                            "--app", "ABCDE12345.com.example.app2"], stdin: Array(Self.overview.utf8))
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["opens"] as? String == "ABCDE12345.com.example.app2")
        let apps = try #require(object["apps"] as? [[String: Any]])
        #expect(apps.count == 1)
        #expect(apps.first?["decision"] as? String == "match")
        #expect(apps.first?["rule"] as? Int == 1)
        let explanation = try #require(apps.first?["explanation"] as? [String: Any])
        #expect((explanation["summary"] as? String)?.contains("opens this URL") == true)
    }

    /// The JSON to the byte: pretty, sorted, slashes as they are, absent members left out.
    @Test func jsonOutputToTheByte() throws {
        let file = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app","ABCDE12345.com.example.two"],"components":[{"/":"/buy/*"}]}]}}"#
        let both = try BuiltCommand.run(["match", "-", "https://example.com/buy/1", "--json"], stdin: Array(file.utf8))
        #expect(both.stdout == #"""
            {
              "apps" : [
                {
                  "app_id" : "ABCDE12345.com.example.app",
                  "decision" : "match",
                  "entry" : 0,
                  "rule" : 0,
                  "rule_text" : "{\"/\": \"/buy/*\"}"
                },
                {
                  "app_id" : "ABCDE12345.com.example.two",
                  "decision" : "match",
                  "entry" : 0,
                  "rule" : 0,
                  "rule_text" : "{\"/\": \"/buy/*\"}"
                }
              ],
              "opens" : "ABCDE12345.com.example.app",
              "url" : "https://example.com/buy/1"
            }

            """#)
        let outside = try BuiltCommand.run(["match", "-", "https://other.test/x", "--domain", "example.com", "--app", "ABCDE12345.com.example.app", "--json"],
                                           stdin: Array(file.utf8))
        #expect(outside.stdout == #"""
            {
              "apps" : [
                {
                  "app_id" : "ABCDE12345.com.example.app",
                  "decision" : "no_match"
                }
              ],
              "outside_domain" : "example.com",
              "url" : "https://other.test/x"
            }

            """#)
    }

    @Test func unusableFileAndBadUsage() throws {
        let broken = try BuiltCommand.run(["match", "-", "https://example.com/"], stdin: Array("[1, 2".utf8))
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("not a usable association file"))
        let missing = try BuiltCommand.run(["match", "only-a-file"])
        #expect(missing.status == 64)
        let mixed = try BuiltCommand.run(["match", "--batch", "file"])
        #expect(mixed.status == 64)
    }

    /// An app ID or a URL that cannot be matched is refused as `check` refuses it (64, with the reason);
    /// both were answered "no match" with exit 1 and nothing said (issue #31).
    @Test func aBadAppIDOrURLIsRefusedNotAnsweredNoMatch() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("apple-app-site-association", Self.overview)
        let app = try BuiltCommand.run(["match", path, "https://example.com/buy/1", "--app", "notanappid"])
        #expect(app.status == 64)
        #expect(app.stderr.contains("--app notanappid: "), "\(app.stderr)")
        let url = try BuiltCommand.run(["match", path, "not-a-url"])
        #expect(url.status == 64)
        #expect(url.stderr.contains("not-a-url is not a URL a link opens"), "\(url.stderr)")
        let hostless = try BuiltCommand.run(["match", path, "https:///buy/1"])
        #expect(hostless.status == 64 && hostless.stderr.contains("has no host"))
        let android = try BuiltCommand.run(["match", path, "ftp://example.com/buy/1", "--package", "com.example.shop"])
        #expect(android.status == 64)
        // A path still matches as on any host, and a good app ID is decided as before.
        #expect(try BuiltCommand.run(["match", path, "/buy/1"]).status == 0)
        #expect(try BuiltCommand.run(["match", path, "https://example.com/buy/1", "--app", "ABCDE12345.com.example.app"]).status == 0)
    }

    @Test func batchAnswersEveryLineAndNeverAborts() throws {
        let compact = Self.overview.replacingOccurrences(of: "\n", with: " ")
        let lines = [
            #"{"id": 1, "aasa": \#(compact), "domain": "example.com", "appId": "ABCDE12345.com.example.app", "url": "https://example.com/buy/1"}"#,
            #"{"id": "two", "aasa": \#(compact), "domain": "example.com", "appId": "ABCDE12345.com.example.app", "url": "https://example.com/buy/1#no_universal_links"}"#,
            #"{"id": 3, "aasa": \#(compact), "domain": "example.com", "appId": "ABCDE12345.com.example.other", "url": "https://example.com/buy/1"}"#,
            "this is not json",
            #"{"id": 5, "aasa": "not an object", "appId": "A.b", "url": "https://example.com/"}"#,
            #"{"id": 6, "aasa": {"applinks": {"details": [{"appID": "A.b", "paths": ["*"]}]}}, "domain": "example.com", "appId": "A.b", "url": "https://elsewhere.com/"}"#,
            #"{"id": 12345678901234567890, "aasa": {"applinks": {"details": {"A.b": {"paths": ["/x"]}}}}, "appId": "A.b", "url": "https://example.com/x"}"#,
            #"{"id": 8, "aasa": {}, "appId": "A.b"}"#,
        ]
        let outcome = try BuiltCommand.run(["match", "--batch"], stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stdout == """
            {"id":1,"decision":"match"}
            {"id":"two","decision":"exclude"}
            {"id":3,"decision":"no_match"}
            {"id":null,"error":"the line is not valid JSON"}
            {"id":5,"error":"\\"aasa\\" is not a usable apple-app-site-association object"}
            {"id":6,"decision":"no_match"}
            {"id":12345678901234567890,"decision":"match"}
            {"id":8,"error":"\\"url\\" is missing or not a string"}

            """)
    }

    /// `app_id` is the key, like every public JSON; `appId` and `appID` (earlier versions) still work.
    @Test func batchAcceptsTheAppIDKeyAndItsAliases() throws {
        let file = #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": "/buy/*"}]}]}}"#
        let lines = ["app_id", "appId", "appID", "app"].enumerated().map { index, key in
            #"{"id": \#(index), "aasa": \#(file), "\#(key)": "A.b", "url": "https://example.com/buy/1"}"#
        }
        let outcome = try BuiltCommand.run(["match", "--batch"], stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(outcome.stdout == """
            {"id":0,"decision":"match"}
            {"id":1,"decision":"match"}
            {"id":2,"decision":"match"}
            {"id":3,"error":"\\"app_id\\" is missing or not a string"}

            """)
    }

    /// Each way a line can be refused, by name, in the order the members are looked at; the file may
    /// come as its text in a JSON string, and the id is echoed as the line wrote it.
    @Test func batchRefusesEachBadLineByName() throws {
        let file = #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": "/buy/*"}]}]}}"#
        let fileText = String(decoding: try JSONSerialization.data(withJSONObject: [file]), as: UTF8.self).dropFirst().dropLast()
        let lines = [
            #"[1, 2]"#,
            #"{"id": 2, "aasa": [], "app_id": "A.b", "url": "https://example.com/buy/1"}"#,
            #"{"id": 3, "app_id": "A.b", "url": "https://example.com/buy/1"}"#,
            #"{"id": 4, "aasa": null, "app_id": "A.b", "url": "https://example.com/buy/1"}"#,
            #"{"id": 5, "aasa": \#(file), "domain": 7, "app_id": "A.b", "url": "https://example.com/buy/1"}"#,
            #"{"id": 6, "aasa": \#(file), "app_id": 7, "appId": "A.b", "url": "https://example.com/buy/1"}"#,
            #"{"id": 7, "aasa": \#(fileText), "app_id": "A.b", "url": "https://example.com/buy/1"}"#,
            #"{"id": 8, "aasa": \#(file), "app_id": "A.b", "url": 5}"#,
            #"{"id": {"n": [1, 2]}, "aasa": \#(file), "domain": null, "app_id": "A.b", "url": "https://example.com/buy/1"}"#,
            #"{"id": 10, "aasa": 5, "app_id": "A.b", "url": "https://example.com/buy/1"}"#,
        ]
        let outcome = try BuiltCommand.run(["match", "--batch"], stdin: Array(lines.joined(separator: "\n").utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stdout == """
            {"id":null,"error":"the line is not a JSON object"}
            {"id":2,"error":"\\"aasa\\" must be the file's JSON object"}
            {"id":3,"error":"\\"aasa\\" is missing"}
            {"id":4,"error":"\\"aasa\\" is missing"}
            {"id":5,"error":"\\"domain\\" is not a string"}
            {"id":6,"error":"\\"app_id\\" is missing or not a string"}
            {"id":7,"decision":"match"}
            {"id":8,"error":"\\"url\\" is missing or not a string"}
            {"id":{"n": [1, 2]},"decision":"match"}
            {"id":10,"error":"\\"aasa\\" must be the file's JSON object"}

            """)
    }

    @Test func batchHandlesManyLines() throws {
        var input = ""
        for index in 0..<3000 {
            let path = index % 3 == 0 ? "/buy/\(index)" : index % 3 == 1 ? "/help/website/\(index)" : "/other/\(index)"
            input += #"{"id": \#(index), "aasa": {"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": "/buy/*"}, {"/": "/help/*", "exclude": true}]}]}}, "appId": "A.b", "url": "https://example.com\#(path)"}"# + "\n"
        }
        let outcome = try BuiltCommand.run(["match", "--batch"], stdin: Array(input.utf8))
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 3000)
        #expect(lines[0] == #"{"id":0,"decision":"match"}"#)
        #expect(lines[1] == #"{"id":1,"decision":"exclude"}"#)
        #expect(lines[2999] == #"{"id":2999,"decision":"no_match"}"#)
    }
}
