import AASA
import ArgumentParser
import AssetLinks
import Foundation
import Vocabulary
import WebAuthn

extension AASAMonitor {
    /// `aasa-monitor diff OLD NEW [--url URL ...] [--json]`: how two versions of a file differ in behaviour.
    /// Exit status: 0 same behaviour, 1 different, 2 a file is not usable, 64 bad usage.
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare two apple-app-site-association (or two assetlinks.json, or two webauthn) files by behaviour, not bytes.",
            discussion: """
                Reports app IDs added or removed per service, rules added, removed, moved or changed per app \
                (after the defaults hierarchy, so hoisting a setting into "defaults" is no change), and for each \
                --url, which apps' outcomes change. For assetlinks.json (detected by content): statements added or \
                removed per relation, packages and fingerprints added or removed, each app's dynamic rules added, \
                removed or moved, and for each --url which packages' Android 15+ outcomes change. For the web's \
                related-origins file (named webauthn, or an object with "origins"): origins browsers now match or no \
                longer match (also when pushed past the fifth label), the label count crossing 5, and a file browsers \
                start or stop rejecting. Exit status: 0 same behaviour, 1 different, 2 unusable file, 64 usage error.
                """)

        @Argument(help: "The old file, or - for standard input.")
        var old: String

        @Argument(help: "The new file, or - for standard input.")
        var new: String

        @Option(name: .customLong("url"), help: "A URL whose outcome to compare (repeatable).")
        var urls: [String] = []

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            if old == "-" && new == "-" { throw ValidationError("Only one of the files can be standard input.") }
        }

        func run() throws {
            let (oldBytes, newBytes) = (try bytes(old), try bytes(new))
            let webauthn = [(oldBytes, old), (newBytes, new)].map { ValidatedFile.detect($0.0, name: $0.1, platform: nil) == .webauthn }
            if webauthn != [false, false] {
                guard webauthn == [true, true] else {
                    Terminal.printError("aasa-monitor diff: one file is a webauthn file and the other is not; compare files of the same kind.")
                    throw ExitCode(64)
                }
                try diffRelatedOrigins(oldBytes, newBytes)
            }
            switch (FileFormat.detect(oldBytes, name: old), FileFormat.detect(newBytes, name: new)) {
            case (.android, .android):
                let diff = AssetLinksDiff.diff(old: try assetLinks(oldBytes, old), new: try assetLinks(newBytes, new), urls: urls)
                if json {
                    Terminal.print(AndroidOutput.diffJSON(diff), terminator: "")
                } else {
                    Terminal.print(TerminalText(lines: diff.lines))
                }
                throw ExitCode(diff.isBehaviourallyEqual ? 0 : 1)
            case (.apple, .apple):
                break
            default:
                Terminal.printError("aasa-monitor diff: one file is an assetlinks.json and the other is not; compare files of the same kind.")
                throw ExitCode(64)
            }
            let before = try document(oldBytes, old)
            let after = try document(newBytes, new)
            let diff = AASADiff.diff(old: before, new: after, urls: urls)
            if json {
                let encoder = PublicJSON.encoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                struct Output: Encodable {
                    var behaviourallyEqual: Bool
                    var diff: DocumentDiff
                }
                let data = try encoder.encode(Output(behaviourallyEqual: diff.isBehaviourallyEqual, diff: diff))
                Terminal.print(TerminalText(json: String(decoding: data, as: UTF8.self)))
            } else {
                Terminal.print(TerminalText(lines: diff.lines))
            }
            throw ExitCode(diff.isBehaviourallyEqual ? 0 : 1)
        }

        /// Two related-origins files; always ends by throwing the exit status (a file browsers reject is
        /// a change in behaviour, reported as such, not an unusable input).
        private func diffRelatedOrigins(_ oldBytes: [UInt8], _ newBytes: [UInt8]) throws -> Never {
            let rules = try WebAuthnOutput.rules(command: "diff")
            let diff = RelatedOriginsDiff.diff(old: RelatedOriginsValidator.validate(oldBytes, rules: rules),
                                               new: RelatedOriginsValidator.validate(newBytes, rules: rules))
            Terminal.print(json ? WebAuthnOutput.diffJSON(diff) : TerminalText(lines: diff.lines) + "\n", terminator: "")
            throw ExitCode(diff.isBehaviourallyEqual ? 0 : 1)
        }

        private func bytes(_ path: String) throws -> [UInt8] {
            do {
                return try InputFile.read(path)
            } catch {
                Terminal.printError("aasa-monitor diff: \(error)")
                throw ExitCode(64)
            }
        }

        private func assetLinks(_ bytes: [UInt8], _ path: String) throws -> AssetLinksFile {
            guard let file = AssetLinksReader.read(bytes).file else {
                Terminal.printError("aasa-monitor diff: Google reads no statement from \(path) (run aasa-monitor validate \(path)).")
                throw ExitCode(2)
            }
            return file
        }

        private func document(_ bytes: [UInt8], _ path: String) throws -> AASADocument {
            guard let document = AASAParser.parse(bytes).document else {
                Terminal.printError("aasa-monitor diff: \(path) is not a usable association file (run aasa-monitor validate \(path)).")
                throw ExitCode(2)
            }
            return document
        }
    }
}
