import Foundation
import Testing
import Vocabulary

@Suite struct AppIDTests {
    @Test func typedInputIsTrimmedAndSplit() throws {
        let id = try AppID(typed: " ABCDE12345.com.example.app \n")
        #expect(id.text == "ABCDE12345.com.example.app")
        #expect(id.teamID == "ABCDE12345" && id.bundleID == "com.example.app")
        // The exact initialiser keeps white space an error (a file's value is taken as it is).
        #expect(throws: AppIDError.self) { try AppID(" ABCDE12345.com.example.app") }
    }

    @Test func messagesSayWhatIsWrong() {
        func message(_ text: String) -> String? {
            do { _ = try AppID(typed: text); return nil } catch { return error.message }
        }
        #expect(message("abcde12345.com.x")?.contains("upper-case: ABCDE12345") == true)
        #expect(message("ABC.com.x")?.contains("10 upper-case") == true)
        #expect(message("ABCDE12345")?.contains("no dot") == true)
        #expect(message("ABCDE12345.com/x")?.contains("bundle ID") == true)
    }

    /// The one rule: each of these was accepted by at least one of the old copies (the CLI import
    /// took any bundle without a space or a slash), and every one is refused now, with its problem.
    @Test(arguments: [
        ("ABCDE12345.com.example_app", AppIDError.Problem.disallowedCharacter("_", inTeamID: false)),
        ("ABCDE12345.com..app", .emptyBundlePart),
        ("ABCDE12345.com.app.", .emptyBundlePart),
        ("ABCDE12345.bücher", .disallowedCharacter(nil, inTeamID: false)),
        ("ABCDE1234.com.x", .nonstandardTeamID(upperCased: nil)),
        ("abcde12345.com.x", .nonstandardTeamID(upperCased: "ABCDE12345")),
        (".com.x", .emptyTeamID),
        ("ABCDE12345.", .emptyBundleID),
        ("ABCDE12345", .noDot),
    ])
    func refused(_ text: String, problem: AppIDError.Problem) {
        #expect(AppID.problem(in: text) == problem)
        #expect(throws: AppIDError(input: text, problem: problem)) { try AppID(text) }
    }

    @Test func codedAsItsTextAndValidatedWhenDecoded() throws {
        let id = try AppID("ABCDE12345.com.example.app")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == #"["ABCDE12345.com.example.app"]"#)
        #expect(try JSONDecoder().decode([AppID].self, from: data) == [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([AppID].self, from: Data(#"["abcde12345.x"]"#.utf8)) }
    }
}
