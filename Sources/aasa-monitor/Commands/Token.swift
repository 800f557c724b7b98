import ArgumentParser
import Foundation
import Store
import Web

extension AASAMonitor {
    /// `aasa-monitor token …`: bearer tokens for /api/v1.
    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, list and revoke API tokens (Authorization: Bearer TOKEN on /api/v1).",
            subcommands: [Create.self, List.self, Revoke.self])
    }
}

extension AASAMonitor.Token {
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token and print it; only its hash is stored, so it cannot be shown again.")
        @Argument(help: "A name to recognise the token by, e.g. ci.") var name: String
        @Flag(name: .customLong("read-only"), help: "The token may read but not change anything.") var readOnly = false
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try opened.database.createAPIToken(name: name, tokenHash: token.digest, userID: nil,
                                                   role: readOnly ? .readOnly : .admin)
            // The one line on standard output is the token, so scripts can capture it.
            Terminal.print("\(token.value)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List live tokens (names only).")
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            for t in try opened.database.apiTokens() { Terminal.print("\(t.id)\t\(t.name)\t\(t.role)") }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token by its id (see token list).")
        @Argument(help: "The token's id.") var id: Int64
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            guard try opened.database.revokeAPIToken(id: id) else {
                StandardError.log("error: no live token with id \(id)")
                throw ExitCode(1)
            }
            Terminal.print("revoked token \(id)")
        }
    }
}
