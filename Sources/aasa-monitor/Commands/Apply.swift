import ArgumentParser
import ConfigFile
import Foundation
import Registry
import Store

extension AASAMonitor {
    /// `aasa-monitor apply FILE`: config as code.
    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the monitored domains and channels what a YAML file declares (config as code).",
            discussion: """
                Adds what the file declares and the database lacks, changes what differs, and with --prune removes \
                what the file's lists leave out (a list the file does not name is never pruned). Applying the same file \
                twice changes nothing. A file with any bad entry is refused whole, with the line and the reason of each \
                problem, and changes nothing; all changes are made in one transaction. Channel settings may read \
                ${NAME} from the environment (secrets must). Exit status: 0 applied (or nothing to do), 2 with \
                --dry-run --exit-code when there are changes, 65 the file was refused, 66 it cannot be read. \
                With --json the plan (or the refusal, with each problem's line) is one JSON object on standard output.
                """)

        @Argument(help: "The YAML file, or - for standard input.") var file: String
        @Flag(name: .customLong("dry-run"), help: "Print the plan and change nothing.") var dryRun = false
        @Flag(help: "Remove the domains and channels the file's lists leave out.") var prune = false
        @Flag(name: .customLong("exit-code"), help: "With --dry-run: exit 2 when the plan has changes (for drift checks in CI).")
        var exitCode = false
        @Flag(help: "Print the plan as JSON: {applied, changes: {add, change, remove}, steps: [{action, type, name, details}], kept}.")
        var json = false
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var server: ServerOptions

        func validate() throws {
            if exitCode && !dryRun { throw ValidationError("--exit-code applies to --dry-run only") }
            try server.validate(against: database)
        }

        func run() throws {
            // Every problem of the file in one report: what the reader found, and what the registry's
            // rules find in the entries it could read (a refused file changes nothing either way).
            if let client = try server.connect() {
                let bytes = try ConfigInput.bytes(file)
                // A file that cannot be read at all is refused here, as locally; the server reads the rest.
                _ = try ConfigInput.reading(bytes, path: file, json: json)
                return try show(try applyRemotely(client, text: String(decoding: bytes, as: UTF8.self)))
            }
            let reading = try ConfigInput.reading(file, json: json)
            let opened: ApplicationDatabase
            do {
                opened = try database.open(migrate: true)
            } catch {
                // No database to check the rest against: the reader's problems still refuse the file.
                if !reading.problems.isEmpty { ConfigInput.report(ConfigRefusal(reading.problems), path: file, json: json) }
                throw error
            }
            defer { try? opened.close() }
            try show(try ConfigInput.apply(reading.document, from: file, to: DomainRegistry(store: opened.database), prune: prune,
                                           dryRun: dryRun, json: json, readerProblems: reading.problems))
        }

        /// The server reads and applies the file (`/api/v1/config/plan` or `…/apply`) as `ConfigInput.apply`
        /// does here, and a refusal is reported as a local one is (every problem with its line, exit 65).
        private func applyRemotely(_ client: APIClient, text: String) throws -> ConfigPlan {
            let outcome = try remote { () throws(RemoteError) in
                try RemoteConfig.apply(client, text: text, environment: ProcessInfo.processInfo.environment, prune: prune, dryRun: dryRun)
            }
            switch outcome {
            case .plan(let plan):
                return plan
            case .refused(let refusal):
                ConfigInput.report(refusal, path: file, json: json)
                throw ExitCode(65)
            }
        }

        /// The plan as text or JSON, from here or from the server; exit 2 for drift when asked.
        private func show(_ plan: ConfigPlan) throws {
            if json {
                Terminal.print(ConfigPlanOutput.json(plan))
            } else {
                for line in ConfigPlanOutput.lines(plan) { Terminal.print(line) }
            }
            if exitCode && !plan.isEmpty { throw ExitCode(2) }
        }
    }
}

/// Reading and applying a config file, shared by `apply` and `serve --config`.
enum ConfigInput {
    /// The file read and checked for shape; a refusal is printed (every problem, with its line) and
    /// exits 65 (EX_DATAERR), an unreadable file 66 (EX_NOINPUT).
    static func read(_ path: String, json: Bool = false) throws -> ConfigDocument {
        switch ConfigReader.read(try bytes(path), environment: ProcessInfo.processInfo.environment) {
        case .success(let document):
            return document
        case .failure(let refusal):
            report(refusal, path: path, json: json)
            throw ExitCode(65)
        }
    }

    /// The file read as far as it goes, with the reader's problems (`ConfigReader.reading`), for
    /// `apply` to check the rest before it reports; a file read not at all is refused here (65).
    static func reading(_ path: String, json: Bool = false) throws -> (document: ConfigDocument, problems: [ConfigProblem]) {
        try reading(try bytes(path), path: path, json: json)
    }

    static func reading(_ bytes: [UInt8], path: String, json: Bool) throws -> (document: ConfigDocument, problems: [ConfigProblem]) {
        let reading = ConfigReader.reading(bytes, environment: ProcessInfo.processInfo.environment)
        guard let document = reading.document else {
            report(ConfigRefusal(reading.problems), path: path, json: json)
            throw ExitCode(65)
        }
        return (document, reading.problems)
    }

    /// The file's bytes; one that cannot be read exits 66 (EX_NOINPUT).
    static func bytes(_ path: String) throws -> [UInt8] {
        do {
            return try InputFile.read(path)
        } catch {
            StandardError.log("error: \(error)")
            throw ExitCode(66)
        }
    }

    static func apply(_ document: ConfigDocument, from path: String, to registry: DomainRegistry, prune: Bool, dryRun: Bool,
                      json: Bool = false, readerProblems: [ConfigProblem] = []) throws -> ConfigPlan {
        do {
            return try registry.apply(document, prune: prune, dryRun: dryRun, readerProblems: readerProblems)
        } catch let refusal as ConfigRefusal {
            report(refusal, path: path, json: json)
            throw ExitCode(65)
        }
    }

    /// The problems on standard error, and with `json` also as JSON on standard output.
    static func report(_ refusal: ConfigRefusal, path: String, json: Bool) {
        report(refusal, path: path)
        if json { Terminal.print(ConfigPlanOutput.json(refusal)) }
    }

    static func report(_ refusal: ConfigRefusal, path: String) {
        let name = path == "-" ? "standard input" : path
        StandardError.log("error: \(name) was refused and nothing was changed (\(refusal.problems.count) problem\(refusal.problems.count == 1 ? "" : "s")):")
        for problem in refusal.problems {
            Terminal.printError(problem.line > 0 ? "\(name):\(problem.line): \(problem.message)" : "\(name): \(problem.message)")
        }
    }
}
