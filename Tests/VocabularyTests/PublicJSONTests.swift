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
}
