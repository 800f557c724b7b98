import ArgumentParser
import ConfigFile
import Foundation
import Registry

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

        func validate() throws {
            if exitCode && !dryRun { throw ValidationError("--exit-code applies to --dry-run only") }
        }

        func run() throws {
            let document = try ConfigInput.read(file, json: json)
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            let plan = try ConfigInput.apply(document, from: file, to: DomainRegistry(store: opened.database), prune: prune, dryRun: dryRun,
                                             json: json)
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
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path)
        } catch {
            StandardError.log("error: \(error)")
            throw ExitCode(66)
        }
        switch ConfigReader.read(bytes, environment: ProcessInfo.processInfo.environment) {
        case .success(let document):
            return document
        case .failure(let refusal):
            report(refusal, path: path, json: json)
            throw ExitCode(65)
        }
    }

    static func apply(_ document: ConfigDocument, from path: String, to registry: DomainRegistry, prune: Bool, dryRun: Bool,
                      json: Bool = false) throws -> ConfigPlan {
        do {
            return try registry.apply(document, prune: prune, dryRun: dryRun)
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
