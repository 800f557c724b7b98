import AASA
import Foundation
import Vocabulary

/// The domain object written without Foundation's encoder, for the JSON export: at 10,000 domains
/// `JSONEncoder` was two thirds of the export's CPU (one encode per domain, each boxing every value
/// before writing it). The bytes are exactly those `APIResponses.json` writes for the same value —
/// keys sorted, absent optionals left out, Foundation's string escapes, then `<`, `>` and `&` made
/// markup-safe, dates as `.iso8601` — which `DomainJSONBytesTests` and `DomainExportTests` hold it to,
/// so a field added to `DomainJSON` and not here fails them.
extension DomainAPI.DomainJSON {
    func jsonBytes() throws -> [UInt8] {
        var w = JSONBytes()
        w.open(UInt8(ascii: "{"))
        if let android {
            // Never in the export (no latest check there); the encoder's path keeps it exact.
            w.key("android")
            w.raw(APIResponses.htmlSafe(Array(try APIResponses.encoder.encode(android))))
        }
        if let android_apps {
            w.key("android_apps")
            w.array(android_apps) { w, app in
                w.open(UInt8(ascii: "{"))
                w.key("fingerprints"); w.array(app.fingerprints) { $0.string($1) }
                w.key("package"); w.string(app.package)
                w.key("upload_keys"); w.array(app.uploadKeys) { $0.string($1) }
                w.close(UInt8(ascii: "}"))
            }
        }
        if let android_state { w.key("android_state"); w.string(android_state.rawValue) }
        if let app_ids {
            w.key("app_ids")
            w.array(app_ids) { w, entry in
                w.open(UInt8(ascii: "{"))
                w.key("app_id"); w.string(entry.appID)
                w.key("service"); w.string(entry.service)
                w.close(UInt8(ascii: "}"))
            }
        }
        if let apple_state { w.key("apple_state"); w.string(apple_state.rawValue) }
        w.key("badge"); w.bool(badge)
        w.key("display_name"); w.string(display_name)
        w.key("host"); w.string(host)
        w.key("id"); w.number(id)
        w.key("interval_minutes"); w.number(interval_minutes)
        if let last_changed_at { w.key("last_changed_at"); w.date(last_changed_at) }
        if let last_checked_at { w.key("last_checked_at"); w.date(last_checked_at) }
        w.key("next_check_at"); w.date(next_check_at)
        if let open_alerts { w.key("open_alerts"); w.number(open_alerts) }
        w.key("paused"); w.bool(paused)
        w.key("platforms"); w.string(platforms.rawValue)
        if let reason { w.key("reason"); w.string(reason) }
        if let reason_platform { w.key("reason_platform"); w.string(reason_platform.rawValue) }
        w.key("state"); w.string(state)
        if let watched_urls {
            w.key("watched_urls")
            w.array(watched_urls) { w, entry in
                w.open(UInt8(ascii: "{"))
                if let android = entry.android { w.key("android"); w.string(android) }
                w.key("expect"); w.string(entry.expect)
                w.key("url"); w.string(entry.url)
                w.close(UInt8(ascii: "}"))
            }
        }
        w.key("wildcard"); w.bool(wildcard)
        w.close(UInt8(ascii: "}"))
        return w.out
    }
}

/// JSON appended byte by byte as `APIResponses.json` spells it: commas placed by nesting, strings
/// escaped as Foundation escapes them (`\b \f \n \r \t`, other controls as lower-case `\u00xx`, DEL
/// and non-ASCII as they are, `/` unescaped) plus `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`.
struct JSONBytes {
    private(set) var out: [UInt8] = []
    /// Per open object or array: whether it has a member yet (the next one needs a comma).
    private var hasMember: [Bool] = []
    /// A key was just written: its value needs no comma.
    private var afterKey = false

    mutating func open(_ bracket: UInt8) {
        separate()
        out.append(bracket)
        hasMember.append(false)
    }

    mutating func close(_ bracket: UInt8) {
        hasMember.removeLast()
        out.append(bracket)
    }

    mutating func key(_ name: StaticString) {
        separate()
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        afterKey = true
    }

    mutating func array<T>(_ items: [T], _ write: (inout JSONBytes, T) -> Void) {
        open(UInt8(ascii: "["))
        for item in items { write(&self, item) }
        close(UInt8(ascii: "]"))
    }

    mutating func bool(_ value: Bool) {
        separate()
        out.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
    }

    mutating func number<N: BinaryInteger>(_ value: N) {
        separate()
        out.append(contentsOf: String(value).utf8)
    }

    /// `.iso8601`: whole seconds, UTC.
    mutating func date(_ value: Date) { string(CivilDate.iso8601(value)) }

    /// Bytes that are already one JSON value.
    mutating func raw(_ value: [UInt8]) {
        separate()
        out.append(contentsOf: value)
    }

    mutating func string(_ value: String) {
        separate()
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(Self.hexDigits[Int(byte >> 4)])
                out.append(Self.hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        if let last = hasMember.indices.last {
            if hasMember[last] { out.append(UInt8(ascii: ",")) }
            hasMember[last] = true
        }
    }
}
