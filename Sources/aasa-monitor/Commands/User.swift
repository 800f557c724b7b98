import ArgumentParser
import Foundation
import Glibc
import Store
import Web

extension AASAMonitor {
    /// `aasa-monitor user …`: dashboard accounts.
    struct User: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, list and remove dashboard accounts.",
            subcommands: [Create.self, List.self, Remove.self])
    }
}

extension AASAMonitor.User {
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; the password comes from a prompt, or from standard input with --password-stdin.")

        @Argument(help: "The email address people log in with.") var email: String
        @Flag(help: "Make the account an administrator (default: read-only).") var admin = false
        @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of standard input.")
        var passwordStdin = false
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            if let problem = AccountRules.emailProblem(email) { throw ValidationError(problem) }
        }

        func run() throws {
            let password: String
            if passwordStdin {
                guard let line = readLine(strippingNewline: true) else { throw ValidationError("standard input had no password line") }
                password = line
            } else {
                guard let first = getpass("Password: ").map({ String(cString: $0) }),
                      let second = getpass("Repeat it: ").map({ String(cString: $0) }) else { throw ExitCode(1) }
                guard first == second else {
                    StandardError.log("error: the two passwords differ")
                    throw ExitCode(1)
                }
                password = first
            }
            if let problem = AccountRules.passwordProblem(password) {
                StandardError.log("error: \(problem)")
                throw ExitCode(1)
            }
            let hash = try PasswordHasher.interactive.hash(password)
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            guard try opened.database.createUser(email: email, passwordHash: hash, role: admin ? .admin : .readOnly) != nil else {
                StandardError.log("error: there already is an account for \(email)")
                throw ExitCode(1)
            }
            Terminal.print("created \(admin ? "admin" : "read-only") account \(email)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts.")
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            for u in try opened.database.users() {
                Terminal.print("\(u.email)\t\(u.role.label)")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an account and end its sessions.")
        @Argument(help: "The account's email address.") var email: String
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            guard let user = try opened.database.user(email: email) else {
                StandardError.log("error: no account for \(email)")
                throw ExitCode(1)
            }
            try opened.database.deleteUser(id: user.id)
            Terminal.print("removed \(user.email)")
        }
    }
}
