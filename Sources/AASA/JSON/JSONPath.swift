/// A path from the document root to a value, as an RFC 6901 JSON pointer.
///
/// Two ways to grow it, for two users. The JSON reader walks every value and needs a pointer only
/// for the rare finding, so `push`/`pop` keep cheap steps and build text on demand. The document
/// readers `append` once per key they read and ask for the pointer of nearly every rule and entry
/// (each model value keeps its location), so `appending` builds the pointer text right away: one
/// string per path, instead of a copied step array per path and the text again for each location.
struct JSONPath: Sendable {
    enum Step: Sendable {
        case key(String)
        case index(Int)
    }

    /// Pointer text of the path up to `steps`.
    private var base: String = ""
    private var steps: [Step] = []

    static let root = JSONPath()

    func appending(_ key: String) -> JSONPath { appending(step: .key(key)) }

    func appending(_ index: Int) -> JSONPath { appending(step: .index(index)) }

    private func appending(step: Step) -> JSONPath {
        let tail: String = switch step {
        case .index(let i): String(i)
        case .key(let k): Self.escape(k)
        }
        var path = JSONPath()
        path.base = Self.joined(pointer, tail)
        return path
    }

    /// `head + "/" + tail` in one right-sized allocation (appending to a copy would copy, then grow).
    private static func joined(_ head: String, _ tail: String) -> String {
        head.withContiguousUTF8 { head in
            tail.withContiguousUTF8 { tail in
                let count = head.count + 1 + tail.count
                return String(unsafeUninitializedCapacity: count) { out in
                    _ = out.initialize(fromContentsOf: head)
                    out[head.count] = UInt8(ascii: "/")
                    _ = out[(head.count + 1)...].initialize(fromContentsOf: tail)
                    return count
                }
            }
        }
    }

    mutating func push(_ step: Step) { steps.append(step) }
    mutating func pop() { steps.removeLast() }

    /// `/applinks/details/0/components/2/~1` — `~` and `/` in keys escaped as `~0` and `~1`.
    var pointer: String {
        if steps.isEmpty { return base }
        var out = base
        for step in steps { Self.write(step, to: &out) }
        return out
    }

    private static func write(_ step: Step, to out: inout String) {
        out.append("/")
        switch step {
        case .index(let i): out.append(String(i))
        case .key(let k): out.append(escape(k))
        }
    }

    /// `~` → `~0`, `/` → `~1`. Byte-wise: every rule's `/` key goes through here.
    static func escape(_ key: String) -> String {
        guard key.containsUTF8Byte(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        var out: [UInt8] = []
        out.reserveCapacity(key.utf8.count + 4)
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "~"): out.append(UInt8(ascii: "~")); out.append(UInt8(ascii: "0"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "~")); out.append(UInt8(ascii: "1"))
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
