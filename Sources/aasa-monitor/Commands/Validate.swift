import AASA
import ArgumentParser
import AssetLinks
import Foundation
import Vocabulary
import WebAuthn

extension AASAMonitor {
    /// `aasa-monitor validate FILE [--platform apple|android|web] [--rp-id RP] [--json]`: the file's findings
    /// without any HTTP exchange. The format is the file's name's (`assetlinks.json`,
    /// `apple-app-site-association`, `webauthn`, `passkey-endpoints`), else its content's (`ValidatedFile`).
    /// Exit status: 0 clean (or info only), 1 warnings or deprecations only, 2 errors, 64 bad usage.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate an apple-app-site-association, assetlinks.json, webauthn or passkey-endpoints file (everything that needs no HTTP exchange).",
            discussion: """
                The format is taken from the file's name first (assetlinks.json is Android's, \
                apple-app-site-association Apple's), then from its content: a top-level JSON array, or an object \
                holding a statement's relation/target or a statements member (Android's file in the wrong shape), \
                is Android's assetlinks.json, anything else Apple's file; --platform forces it. For assetlinks.json, --json prints the findings and the \
                statements Google honours. Files named webauthn or passkey-endpoints (or --platform web) are the web's passkey \
                files: an object with "origins" is the related-origins file (its labels and the origins a browser can match are \
                listed), one with enroll/manage/prfUsageDetails passkey-endpoints; --rp-id names the RP ID they serve. Exit status: 0 clean or info only, 1 warnings or deprecations only, \
                2 errors, 64 usage error.
                """)

        @Argument(help: "The file to validate, or - for standard input.")
        var file: String

        @Option(help: "The file's platform (apple, android or web); from its name, else its content, when omitted.")
        var platform: PlatformOption?

        @Option(name: .customLong("rp-id"), help: "Web files: the RP ID whose host serves the file (notes entries it already covers, off-site links).")
        var rpID: String?

        @Flag(help: "Print the findings as JSON.")
        var json = false

        func run() throws {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(file)
            } catch {
                Terminal.printError("aasa-monitor validate: \(error)")
                throw ExitCode(64)
            }
            let name = file == "-" ? "standard input" : file
            let kind = ValidatedFile.detect(bytes, name: file, platform: platform)
            if rpID != nil && (kind == .apple || kind == .android) {
                Terminal.printError("aasa-monitor validate: --rp-id goes with the web's passkey files (webauthn, passkey-endpoints); \(name) is read as \(kind == .apple ? "apple-app-site-association" : "assetlinks.json").")
                throw ExitCode(64)
            }
            switch kind {
            case .webauthn, .passkeyEndpoints:
                try validateWeb(bytes, name: name, kind: kind)
            case .android:
                let report = AssetLinksValidator.validate(bytes)
                Terminal.print(json ? AndroidOutput.validateJSON(report) : AndroidOutput.validateText(report, name: name), terminator: "")
                throw ExitCode(ValidationOutput.exitStatus(worst: report.worstSeverity))
            case .apple:
                let report = AASAValidator.validate(bytes)
                Terminal.print(json ? ValidationOutput.json(report) : ValidationOutput.text(report, name: name), terminator: "")
                throw ExitCode(ValidationOutput.exitStatus(report))
            }
        }

        /// The web's two passkey files; always ends by throwing the exit status.
        private func validateWeb(_ bytes: [UInt8], name: String, kind: ValidatedFile) throws -> Never {
            let rules = try WebAuthnOutput.rules(command: "validate")
            var relyingParty: RelyingPartyID?
            if let rpID {
                do { relyingParty = try RelyingPartyID(rpID, rules: rules) } catch {
                    Terminal.printError("aasa-monitor validate: --rp-id \(error)")
                    throw ExitCode(64)
                }
            }
            if kind == .passkeyEndpoints {
                let reading = PasskeyEndpointsReader.read(bytes, rpID: relyingParty, rules: rules)
                Terminal.print(json ? WebAuthnOutput.passkeyEndpointsJSON(reading) : WebAuthnOutput.passkeyEndpointsText(reading, name: name), terminator: "")
                throw ExitCode(ValidationOutput.exitStatus(worst: reading.findings.map(\.severity).min()))
            }
            let report = RelatedOriginsValidator.validate(bytes, rules: rules, rpID: relyingParty)
            Terminal.print(json ? WebAuthnOutput.validateJSON(report) : WebAuthnOutput.validateText(report, name: name), terminator: "")
            throw ExitCode(ValidationOutput.exitStatus(worst: report.worstSeverity))
        }
    }
}

extension Platform: ExpressibleByArgument {}
