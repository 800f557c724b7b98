import Foundation
import Testing
import Vocabulary

@Suite struct PublicJSONTests {
    struct Output: Encodable {
        var exitStatus: Int
        var originVersionSHA256: String
        var headers: [String: String]
        var nested: [Inner]
        struct Inner: Encodable { var redirectTarget: String? }
    }

    @Test func structKeysAreSnakeCaseDictionaryKeysAreData() throws {
        let encoder = PublicJSON.encoder()
        encoder.outputFormatting = [.sortedKeys]
        let value = Output(exitStatus: 2, originVersionSHA256: "ab", headers: ["Content-Type": "application/json", "ABCDE12345.app": "x"],
                           nested: [.init(redirectTarget: "https://a.example/")])
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"exit_status":2,"headers":{"ABCDE12345.app":"x","Content-Type":"application\/json"},"nested":[{"redirect_target":"https:\/\/a.example\/"}],"origin_version_sha256":"ab"}"#)
    }

    /// A wrapped optional is written as null when absent (a plain one is left out), and as its value
    /// when present; the key still goes through the snake_case conversion.
    @Test func nullWhenAbsentWritesTheKeyWithNull() throws {
        struct Value: Encodable {
            @PublicJSON.NullWhenAbsent var lastCheck: String?
            var plain: String?
        }
        let encoder = PublicJSON.encoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(Value(lastCheck: nil, plain: nil)), as: UTF8.self) == #"{"last_check":null}"#)
        #expect(String(decoding: try encoder.encode(Value(lastCheck: "x", plain: "y")), as: UTF8.self)
                == #"{"last_check":"x","plain":"y"}"#)
    }

    /// The remembered conversion writes every key as Foundation's `.convertToSnakeCase` does, acronyms
    /// and odd names included, the first time and every time after.
    @Test func keysAreSpelledAsFoundationsSnakeCase() throws {
        struct Names: Encodable {
            var lastCheckedAt = 1, appIDs = 2, URLCount = 3, myURLProperty = 4, already_snake = 5, _leading = 6
            var trailing_ = 7, a1B2c = 8, ID = 9, x = 10, originETag = 11, HTTPHeaderField = 12
        }
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        foundation.outputFormatting = [.sortedKeys]
        let expected = String(decoding: try foundation.encode(Names()), as: UTF8.self)
        let encoder = PublicJSON.encoder()
        encoder.outputFormatting = [.sortedKeys]
        for _ in 0..<2 {
            #expect(String(decoding: try encoder.encode(Names()), as: UTF8.self) == expected)
        }
        #expect(expected.contains(#""last_checked_at":1"#) && expected.contains(#""app_i_ds":2"#), "\(expected)")
    }
}
