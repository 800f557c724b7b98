import Foundation
import Store
import TestSupport
import Testing

@Suite struct ImportCommandTests {
    /// `import` refuses the app IDs the registration form refuses (it used to take any bundle ID
    /// without a space or a slash), names the line and the reason, and exits 1.
    @Test func refusesWhatTheFormRefuses() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let csv = """
            host,app ids
            ok.example,ABCDE12345.com.example.app
            underscore.example,ABCDE12345.com.example_app
            doubled.example,ABCDE12345.com..app
            lower.example,abcde12345.com.example.app
            """
        let outcome = try BuiltCommand.run(["import", "-", "--database-url", database.url], stdin: Array(csv.utf8))
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("added 1, skipped 0 (already registered), refused 3"))
        #expect(outcome.stdout.contains("refused line 3: underscore.example,ABCDE12345.com.example_app: \"ABCDE12345.com.example_app\" is not an app ID: The bundle ID"))
        #expect(outcome.stdout.contains("refused line 4: doubled.example,ABCDE12345.com..app: \"ABCDE12345.com..app\" is not an app ID"))
        #expect(outcome.stdout.contains("refused line 5: lower.example,abcde12345.com.example.app: \"abcde12345.com.example.app\" is not an app ID: The Team ID \"abcde12345\" must be upper-case: ABCDE12345"))

        let checkNow = try BuiltCommand.run(["check-now", "ok.example", "underscore.example", "--database-url", database.url])
        #expect(checkNow.status == 1)
        #expect(checkNow.stdout.contains("requested ok.example"))
        #expect(checkNow.stderr.contains("underscore.example is not registered"))
    }
}
