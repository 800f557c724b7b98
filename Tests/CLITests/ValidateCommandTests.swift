import Foundation
import Testing

/// `aasa-monitor validate` is an API for CI jobs: its output and exit status are pinned here by
/// running the real binary.
@Suite struct ValidateCommandTests {
    static let clean = #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#
    static let warningsOnly = #"{"webcredentials": {"apps": []}}"#
    static let withError = """
    {"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/a"]},
      {"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/x", "?": {"q": 1}}]}]}}
    """

    @Test func cleanFileExitsZero() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("clean.json", Self.clean)
        let outcome = try BuiltCommand.run(["validate", path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "\(path): no findings\n")
    }

    @Test func warningsOnlyExitOne() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("warn.json", Self.warningsOnly)
        let outcome = try BuiltCommand.run(["validate", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == """
            \(path): 1 warning

            Warnings (1)
              service-apps-empty  /webcredentials/apps (line 1:29)
                webcredentials.apps is empty, so no app gets this service for the domain.
                Fix: List the app IDs, e.g. ["ABCDE12345.com.example.app"], or remove "webcredentials".
                Affects: All OS versions

            """)
    }

    @Test func errorsExitTwoAndGroupBySeverity() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("error.json", Self.withError)
        let outcome = try BuiltCommand.run(["validate", path])
        #expect(outcome.status == 2)
        let text = outcome.stdout
        let errors = try #require(text.range(of: "Errors (1)"))
        let warnings = try #require(text.range(of: "Warnings ("))
        let deprecations = try #require(text.range(of: "Deprecations (1)"))
        #expect(errors.lowerBound < warnings.lowerBound && warnings.lowerBound < deprecations.lowerBound)
        #expect(text.contains("  query-predicate-not-string  /applinks/details/1/components/0/?/q (line 2:84)\n"))
        #expect(text.contains("  paths-legacy  /applinks/details/0/paths (line 1:79)\n"))
    }

    @Test func jsonOutputHasTheAgreedShape() throws {
        let outcome = try BuiltCommand.run(["validate", "--json", "-"], stdin: Array(Self.withError.utf8))
        #expect(outcome.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(Set(finding.keys) == ["code", "severity", "location", "message", "hint", "affects"])
        }
        let first = try #require(findings.first)
        #expect(first["code"] as? String == "query-predicate-not-string")
        #expect(first["severity"] as? String == "error")
        let location = try #require(first["location"] as? [String: Any])
        #expect(location["pointer"] as? String == "/applinks/details/1/components/0/?/q")
        #expect(location["line"] as? Int == 2)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 1)
        #expect(summary["exit_status"] as? Int == 2)
        #expect(summary["worst_severity"] as? String == "error")
    }

    /// The whole JSON to the byte: a finding's location as an object, the summary's keys.
    @Test func jsonOutputToTheByte() throws {
        let outcome = try BuiltCommand.run(["validate", "--json", "-"], stdin: Array(Self.warningsOnly.utf8))
        #expect(outcome.status == 1)
        #expect(outcome.stdout == #"""
            {
              "findings" : [
                {
                  "affects" : "All OS versions",
                  "code" : "service-apps-empty",
                  "hint" : "List the app IDs, e.g. [\"ABCDE12345.com.example.app\"], or remove \"webcredentials\".",
                  "location" : {
                    "column" : 29,
                    "line" : 1,
                    "pointer" : "/webcredentials/apps"
                  },
                  "message" : "webcredentials.apps is empty, so no app gets this service for the domain.",
                  "severity" : "warning"
                }
              ],
              "summary" : {
                "deprecations" : 0,
                "errors" : 0,
                "exit_status" : 1,
                "infos" : 0,
                "parsed" : true,
                "signed" : false,
                "warnings" : 1,
                "worst_severity" : "warning"
              }
            }

            """#)
    }

    @Test func stdinDashReadsStandardInput() throws {
        let outcome = try BuiltCommand.run(["validate", "-"], stdin: Array(Self.clean.utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "standard input: no findings\n")
    }

    @Test func invalidJSONIsAnError() throws {
        let outcome = try BuiltCommand.run(["validate", "-"], stdin: Array("{\"applinks\": {".utf8))
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains("invalid-json"))
    }

    @Test func usageErrorsExitSixtyFour() throws {
        #expect(try BuiltCommand.run(["validate"]).status == 64)
        let missing = try BuiltCommand.run(["validate", "/nonexistent/aasa-\(UUID().uuidString)"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("cannot read"))
        #expect(missing.stdout.isEmpty)
    }
}
