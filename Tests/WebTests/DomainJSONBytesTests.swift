import Foundation
import Testing
import Vocabulary
@testable import Web

/// The export's hand-written domain object says, byte for byte, what `APIResponses.json` (Foundation's
/// encoder, markup made safe) says for the same value: every field set and every optional absent,
/// every ASCII character and non-ASCII text in the strings, dates with fractions of a second.
struct DomainJSONBytesTests {
    static let everyASCII = String(String.UnicodeScalarView((0..<0x80).compactMap { Unicode.Scalar(UInt8($0)) }))
    static let odd = everyASCII + " Bücher <b>&amp;</b> \u{2028}\u{FEFF}😀 =cmd|/a\\b"

    static func value(full: Bool) -> DomainAPI.DomainJSON {
        var j = DomainAPI.DomainJSON(
            id: full ? 9_007_199_254_740_993 : 1, host: full ? "*.xn--bcher-kva.example" : "a.example", display_name: full ? odd : "",
            wildcard: full, state: full ? "checking" : "passing", reason: full ? odd : nil, reason_platform: full ? .android : nil, interval_minutes: full ? 1440 : 5, badge: !full,
            platforms: full ? .android : .both,
            last_checked_at: full ? Date(timeIntervalSince1970: 1_732_000_000.999_9) : nil,
            last_changed_at: full ? Date(timeIntervalSince1970: -0.5) : nil, next_check_at: Date(timeIntervalSince1970: 1_800_000_000.25),
            paused: full)
        guard full else { return j }
        j.app_ids = [AppIDEntry(service: "applinks", appID: "ABCDE12345.com.example.app"), AppIDEntry(service: "webcredentials", appID: odd)]
        j.watched_urls = [WatchedURLEntry(url: "https://a.example/p?q=<x>&y=\"z\"", expect: "browser"),
                          WatchedURLEntry(url: odd, expect: "ABCDE12345.com.example.app", android: "com.example.app")]
        j.android_apps = [AndroidAppEntry(package: "com.example.app", fingerprints: ["AA:BB", odd], uploadKeys: []),
                          AndroidAppEntry(package: "com.example.other", fingerprints: [], uploadKeys: ["CC:DD"])]
        j.android = DomainAPI.AndroidJSON(state: .failing, last_checked_at: Date(timeIntervalSince1970: 5), version: odd, findings: [],
                                          google: DomainAPI.GoogleJSON(error_codes: ["ERROR_CODE_FETCH"], max_age_seconds: 0.1, debug_string: odd,
                                                                       statement_count: 2, not_linked: [odd], stale: true, unavailable: nil))
        j.open_alerts = 3
        j.apple_state = .warning
        j.android_state = .failing
        return j
    }

    @Test(arguments: [false, true]) func theBytesAreTheEncoders(full: Bool) throws {
        let value = Self.value(full: full)
        let mine = try value.jsonBytes(), encoders = APIResponses.json(value).body
        #expect(String(decoding: mine, as: UTF8.self) == String(decoding: encoders, as: UTF8.self))
        // Byte for byte: String's == would let another normalisation of the same text pass.
        #expect(mine.elementsEqual(encoders))
    }

    /// Empty lists are written as empty lists, not left out.
    @Test func emptyListsAreTheEncodersToo() throws {
        var value = Self.value(full: false)
        value.app_ids = []
        value.watched_urls = []
        value.android_apps = []
        #expect(try value.jsonBytes() == APIResponses.json(value).body)
        #expect(String(decoding: try value.jsonBytes(), as: UTF8.self).contains(#""android_apps":[],"app_ids":[]"#))
    }
}
