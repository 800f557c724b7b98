import Foundation
import Testing

/// `aasa-monitor diff`: behaviour, not bytes; exit 0 same, 1 different.
@Suite struct DiffCommandTests {
    static let old = #"{"applinks": {"details": [{"appIDs": ["A.app"], "components": [{"/": "/buy/*", "caseSensitive": false}, {"/": "/old/*"}]}]}, "webcredentials": {"apps": ["A.app"]}}"#
    static let hoisted = #"{"webcredentials": {"apps": ["A.app"]}, "applinks": {"defaults": {"caseSensitive": false}, "details": [{"appID": "A.app", "components": [{"/": "buy/*"}, {"/": "/old/*/", "caseSensitive": true}]}]}}"#
    static let changed = #"{"applinks": {"details": [{"appIDs": ["A.app"], "components": [{"/": "/buy/*"}, {"/": "/new/*"}]}]}, "webcredentials": {"apps": ["A.app", "A.two"]}}"#

    @Test func sameBehaviourExitsZero() throws {
        let dir = try ScratchDirectory()
        let outcome = try BuiltCommand.run(["diff", try dir.write("old.json", Self.old), try dir.write("new.json", Self.hoisted),
                                            "--url", "https://example.com/BUY/1"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "No change in behaviour.\n")
    }

    @Test func changesArePrintedAndExitOne() throws {
        let dir = try ScratchDirectory()
        let outcome = try BuiltCommand.run(["diff", try dir.write("old.json", Self.old), try dir.write("new.json", Self.changed),
                                            "--url", "https://example.com/BUY/1", "--url", "https://example.com/new/x"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == """
            Behaviour changed:
              webcredentials apps: + A.two
              applinks rules of A.app:
                ~ changed #1 → #1 (caseSensitive): {"/": "/buy/*", "caseSensitive": false} → {"/": "/buy/*"}
                - removed from #2: {"/": "/old/*"}
                + added at #2: {"/": "/new/*"}
              URLs:
                https://example.com/BUY/1 opens A.app → the browser
                https://example.com/new/x opens the browser → A.app
                https://example.com/BUY/1 for A.app: match → no_match
                https://example.com/new/x for A.app: no_match → match

            """)
    }

    @Test func jsonOutput() throws {
        let dir = try ScratchDirectory()
        let outcome = try BuiltCommand.run(["diff", "--json", try dir.write("old.json", Self.old), "-"],
                                           stdin: Array(Self.changed.utf8))
        #expect(outcome.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["behaviourally_equal"] as? Bool == false)
        let diff = try #require(object["diff"] as? [String: Any])
        let services = try #require(diff["services"] as? [[String: Any]])
        #expect(services.first?["service"] as? String == "webcredentials")
        #expect(services.first?["added"] as? [String] == ["A.two"])
    }

    @Test func unusableFileExitsTwo() throws {
        let dir = try ScratchDirectory()
        let outcome = try BuiltCommand.run(["diff", try dir.write("old.json", Self.old), try dir.write("bad.json", "nope")])
        #expect(outcome.status == 2)
    }
}
