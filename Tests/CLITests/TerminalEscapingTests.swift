import Foundation
import TestSupport
import Testing

/// Issue 16, finding 8: the CLI printed terminal control sequences from hostile files and crawled
/// sites. Every command's text output now escapes them (TerminalText); JSON output stays JSON,
/// escaped by the encoder and for C1 and bidi characters by us. These run the built binary on
/// `FleetFiles.hostile`: ESC[2J, BEL, CR, U+009B (CSI) and U+202E (right-to-left override), raw
/// and as JSON escapes, in keys, patterns, comments and the file's name.
@Suite struct TerminalEscapingTests {
    static let hostile = String(decoding: FleetFiles.hostile, as: UTF8.self)
    static let hostileName = "aasa\u{1B}[2J\u{202E}.json"

    /// The characters a terminal acts on, other than our own line breaks.
    static func rawControls(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }.map { String(format: "U+%04X", $0.value) }
    }

    static func expectNoRawControls(_ outcome: BuiltCommand.Outcome, _ command: String,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(rawControls(outcome.stdout) == [], "stdout of \(command)", sourceLocation: sourceLocation)
        #expect(rawControls(outcome.stderr) == [], "stderr of \(command)", sourceLocation: sourceLocation)
    }

    @Test func validateEscapesTheFileAndItsName() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write(Self.hostileName, Self.hostile)
        let outcome = try BuiltCommand.run(["validate", path])
        Self.expectNoRawControls(outcome, "validate")
        // Escaped, not dropped: the reader sees what is there.
        #expect(outcome.stdout.contains(#"aasa\u{1B}[2J\u{202E}.json: "#))
        #expect(outcome.stdout.contains(#"/\u{1B}[2J\u{202E}key\r"#), "\(outcome.stdout)")
        #expect(outcome.stdout.contains(#"/x\u{1B}[2J\u{7}*"#))
        // Our own layout is untouched: lines, indentation.
        #expect(outcome.stdout.contains("\n\nWarnings ("))
    }

    @Test func validateJSONIsEscapedJSONOfTheSameText() throws {
        let dir = try ScratchDirectory()
        let outcome = try BuiltCommand.run(["validate", "--json", try dir.write("aasa.json", Self.hostile)])
        Self.expectNoRawControls(outcome, "validate --json")
        // Still JSON, and it decodes to the raw characters: the escaping changed the spelling only.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let messages = (object["findings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.contains("\u{1B}[2J\u{202E}key\r") }, "\(messages)")
        #expect(outcome.stdout.contains(#"\u001b[2J\u202ekey\r"#))
    }

    @Test func matchTextExplanationAndJSON() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("aasa.json", Self.hostile)
        let url = "https://example.com/x\u{1B}[2J\u{202E}"
        let text = try BuiltCommand.run(["match", path, url, "--explain"])
        Self.expectNoRawControls(text, "match --explain")
        #expect(text.stdout.contains(#"comment: \u{1B}]0;pwned\u{7} \r\u{9B}31m \u{202E}txt.exe"#), "\(text.stdout)")
        #expect(text.stdout.contains(#"https://example.com/x\u{1B}[2J\u{202E}"#))

        let json = try BuiltCommand.run(["match", path, url, "--explain", "--json"])
        Self.expectNoRawControls(json, "match --json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["url"] as? String == url)

        let batchLine = #"{"id": "\#u{9B}\#u{202E}", "aasa": "{}", "appId": "A.b", "url": "https://example.com/"}"#
        let batch = try BuiltCommand.run(["match", "--batch"], stdin: Array((batchLine + "\n").utf8))
        Self.expectNoRawControls(batch, "match --batch")
        #expect(batch.stdout.contains(#"\u009b\u202e"#), "\(batch.stdout)")
    }

    @Test func diffTextAndJSON() throws {
        let dir = try ScratchDirectory()
        let old = try dir.write("old.json", String(decoding: FleetFiles.good, as: UTF8.self))
        let new = try dir.write("new.json", Self.hostile)
        // Opens the app under the old file, not under the new one: the diff prints it.
        let url = "https://example.com/products/\u{1B}[2J\u{202E}"
        let text = try BuiltCommand.run(["diff", old, new, "--url", url])
        #expect(text.status == 1)
        Self.expectNoRawControls(text, "diff")
        #expect(text.stdout.hasPrefix("Behaviour changed:\n"))
        #expect(text.stdout.contains(#"    https://example.com/products/\u{1B}[2J\u{202E} opens"#), "\(text.stdout)")

        let json = try BuiltCommand.run(["diff", old, new, "--url", url, "--json"])
        Self.expectNoRawControls(json, "diff --json")
        #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [String: Any])

        let missing = try BuiltCommand.run(["diff", old, dir.url.appendingPathComponent(Self.hostileName).path])
        #expect(missing.status == 64)
        Self.expectNoRawControls(missing, "diff of a missing file")
        #expect(missing.stderr.contains(#"\u{1B}[2J"#))
    }

    @Test func checkOfACrawledSiteTextAndJSON() async throws {
        try await TestTLSFleet.with { fleet in
            let arguments = ["check", fleet.host("hostile")] + CheckCommandTests.flags(fleet)
            let text = try CheckCommandTests.run(arguments)
            #expect(text.stdout.hasPrefix("hostile.fleet.test: "), "\(text.stdout)\(text.stderr)")
            Self.expectNoRawControls(BuiltCommand.Outcome(status: text.status, stdout: text.stdout, stderr: text.stderr), "check")
            #expect(text.stdout.contains(#"\u{1B}[2J\u{202E}key\r"#))

            let json = try CheckCommandTests.run(arguments + ["--json"])
            Self.expectNoRawControls(BuiltCommand.Outcome(status: json.status, stdout: json.stdout, stderr: json.stderr), "check --json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let facts = try #require((object["facts"] as? [[String: Any]])?.first)
            #expect(facts["body"] as? String == Self.hostile, "the body decodes to the bytes served")
        }
    }

    /// The escaping holds only while every command writes through `Terminal`: a plain `print` or a
    /// direct write to standard output or error in the executable's sources would bypass it.
    @Test func everyCommandWritesThroughTerminal() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/aasa-monitor").standardizedFileURL
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 10, "found the executable's sources at \(sources.path)")
        let direct = try Regex(#"(^|[^.\w])print\(|Swift\.print\(|FileHandle\.standard(Output|Error)\.write|fputs\(|putchar\("#)
        for file in files where file.lastPathComponent != "TerminalText.swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(direct) {
                Issue.record("\(file.lastPathComponent):\(number + 1) writes around Terminal: \(line)")
            }
        }
    }
}
