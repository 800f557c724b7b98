import ArgumentParser
import Foundation
import Monitor
import Registry
import Store
import Vocabulary

extension AASAMonitor {
    /// `aasa-monitor app …`: apps and the domains they claim, through the same registry as the pages.
    struct App: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add, import and list apps: an Apple and/or Android app and the domains it claims.",
            subcommands: [Add.self, Import.self, List.self])
    }
}

extension AASAMonitor.App {
    /// What `add` and `import` share: the typed fields of an app.
    struct Fields: ParsableArguments {
        @Option(help: "The app's name (default: the bundle ID or the package).") var name: String = ""
        @Option(name: .customLong("app-id"), help: "An Apple app ID, TEAMID.bundle.id (repeatable, one per variant).")
        var appIDs: [String] = []
        @Option(name: .customLong("domain"), help: "An Associated Domains entry, e.g. applinks:example.com (repeatable).")
        var domains: [String] = []
        @Option(help: "The Android package (applicationId).") var package: String = ""
        @Option(name: .customLong("fingerprint"), help: "A SHA-256 signing key fingerprint, optionally FINGERPRINT=upload (repeatable).")
        var fingerprints: [String] = []
        @Option(name: .customLong("android-host"), help: "A host Android verifies (repeatable).") var androidHosts: [String] = []
        @Option(name: .customLong("url"), help: "A URL that must open the app (repeatable).") var urls: [String] = []

        var registration: AppRegistration {
            AppRegistration(name: name, appleAppIDs: appIDs, androidPackage: package,
                            fingerprints: fingerprints.map { entry in
                                let parts = entry.split(separator: "=", maxSplits: 1)
                                return .init(fingerprint: parts.first.map(String.init) ?? "", role: parts.count > 1 ? String(parts[1]) : "app-signing")
                            },
                            appleDomains: domains, androidHosts: androidHosts, watchedURLs: urls)
        }
    }

    /// Prints the plan (what is or would be registered) and the refusals; the exit status says which.
    /// With `--server` the server plans and registers (`POST /api/v1/apps`) and the same lines are printed.
    static func register(_ fields: Fields, entitlements: String?, manifest: String?, dryRun: Bool, database: DatabaseOptions,
                         server: ServerOptions) throws {
        func read(_ path: String?) throws -> [UInt8]? {
            guard let path else { return nil }
            guard let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path) else {
                Terminal.printError("error: cannot read \(path)")
                throw ExitCode(66)  // EX_NOINPUT
            }
            return Array(data)
        }
        let entitlementBytes = try read(entitlements), manifestBytes = try read(manifest)
        if let client = try server.connect() {
            let outcome = try remote { () throws(RemoteError) in
                try RemoteApp.register(client, fields.registration, entitlements: entitlementBytes, manifest: manifestBytes, dryRun: dryRun)
            }
            switch outcome {
            case .planned(let plan, let registeredID):
                for line in plan.lines(dryRun: dryRun) { Terminal.print(line) }
                if let registeredID { Terminal.print(AppPlanLines.registered(registeredID, domains: plan.domains.count)) }
            case .refused(let field, let message):
                Terminal.printError("refused \(field): \(message)")
                throw ExitCode(1)
            }
            return
        }
        let opened = try database.open(migrate: true)
        defer { try? opened.close() }
        let registry = AppRegistry(store: opened.database)
        do {
            let plan = try registry.plan(fields.registration, entitlements: entitlementBytes, manifest: manifestBytes)
            let lines = AppPlanLines(name: plan.draft.name, domains: plan.domains.map { domain in
                AppPlanLines.Domain(host: domain.displayHost, isNew: domain.isNew, links: domain.links.map {
                    AppPlanLines.Link(platform: $0.platform.rawValue, service: $0.service.rawValue, developerMode: $0.developerMode,
                                      managedMode: $0.managedMode)
                })
            }, watched: plan.draft.watchedURLs.map(\.url), ignored: plan.ignored)
            for line in lines.lines(dryRun: dryRun) { Terminal.print(line) }
            guard !dryRun else { return }
            let id = try registry.register(plan)
            Terminal.print(AppPlanLines.registered(id, domains: plan.domains.count))
        } catch let refusal as AppRegistrationError {
            for problem in refusal.problems { Terminal.printError("refused \(problem.field.jsonName): \(problem)") }
            throw ExitCode(1)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an app from typed fields: its app IDs and/or package, and the domains it claims.",
            discussion: "Example: app add --app-id ABCDE12345.com.example.app --domain applinks:example.com --domain webcredentials:example.com")
        @OptionGroup var fields: Fields
        @Flag(name: .customLong("dry-run"), help: "Print what would be registered; write nothing.") var dryRun = false
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var server: ServerOptions

        func validate() throws { try server.validate(against: database) }

        func run() throws {
            try AASAMonitor.App.register(fields, entitlements: nil, manifest: nil, dryRun: dryRun, database: database, server: server)
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an app from its files: an .entitlements property list (XML or binary) and/or an AndroidManifest.xml.",
            discussion: "Everything is registered in one transaction, or nothing: a malformed file is refused with the line and the reason (exit 1).")
        @Option(help: "The .entitlements file (or the associated-domains array), or - for standard input.") var entitlements: String?
        @Option(help: "The AndroidManifest.xml.") var manifest: String?
        @OptionGroup var fields: Fields
        @Flag(name: .customLong("dry-run"), help: "Print what would be registered; write nothing.") var dryRun = false
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var server: ServerOptions

        func validate() throws {
            if entitlements == nil && manifest == nil { throw ValidationError("Give --entitlements FILE and/or --manifest FILE.") }
            try server.validate(against: database)
        }

        func run() throws {
            try AASAMonitor.App.register(fields, entitlements: entitlements, manifest: manifest, dryRun: dryRun, database: database, server: server)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List apps with their links by state (each judged for the app).")
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            for app in try AppSummary.load(from: opened.database) {
                let ids = (app.appleAppIDs + (app.androidPackage.map { [$0] } ?? [])).joined(separator: " ")
                let states = DomainState.allCases.compactMap { s in app.states[s].map { "\($0) \(s.rawValue)" } }.joined(separator: ", ")
                Terminal.print("\(app.id)\t\(app.name)\t\(ids)\t\(app.domainCount) domains, \(app.linkCount) links: \(states.isEmpty ? "none" : states)\t\(app.openAlerts) open alerts")
            }
        }
    }
}
