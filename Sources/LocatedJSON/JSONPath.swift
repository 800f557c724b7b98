/// A path from the document root to a value, as an RFC 6901 JSON pointer.
///
/// Text is built only when needed, in one right-sized string. The JSON reader walks every value with
/// `push`/`pop` and needs a pointer only for the rare finding. The document readers `append` one step
/// per key they read: the step waits in `pending` (most such paths are never printed), and a path
/// whose pointer is wanted again and again (each rule's location and its keys) is `materialized()` once.
package struct JSONPath: Sendable {
    package enum Step: Sendable {
        case key(String)
        case index(Int)
    }

    /// Pointer text of the path before `pending` and `steps`.
    private var base: String = ""
    private var pending: Step?
    private var steps: [Step] = []

    package static let root = JSONPath()

    package init() {}

    package func appending(_ key: String) -> JSONPath { appending(step: .key(key)) }

    package func appending(_ index: Int) -> JSONPath { appending(step: .index(index)) }

    private func appending(step: Step) -> JSONPath {
        var path = JSONPath()
        // Only one step waits: a longer path is turned into text first.
        path.base = pending == nil && steps.isEmpty ? base : pointer
        path.pending = step
        return path
    }

    /// The same path with its text built, for a path that many children extend or that is printed.
    package func materialized() -> JSONPath {
        var path = JSONPath()
        path.base = pointer
        return path
    }

    package mutating func push(_ step: Step) { steps.append(step) }
    package mutating func pop() { steps.removeLast() }

    /// `/applinks/details/0/components/2/~1` — `~` and `/` in keys escaped as `~0` and `~1`.
    package var pointer: String {
        guard let pending else {
            if steps.isEmpty { return base }
            var out = base
            for step in steps { Self.write(step, to: &out) }
            return out
        }
        var text = Self.joined(base, pending)
        for step in steps { Self.write(step, to: &text) }
        return text
    }

    private static func write(_ step: Step, to out: inout String) {
        out.append("/")
        switch step {
        case .index(let i): out.append(String(i))
        case .key(let k): out.append(escape(k))
        }
    }

    /// `head + "/" + step`, the key escaped, in one right-sized allocation.
    private static func joined(_ head: String, _ step: Step) -> String {
        let tail: String = switch step {
        case .index(let i): String(i)
        case .key(let k): k
        }
        return head.withContiguousUTF8 { head in
            tail.withContiguousUTF8 { tail in
                var escapes = 0
                if case .key = step {
                    for byte in tail where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") { escapes += 1 }
                }
                let count = head.count + 1 + tail.count + escapes
                return String(unsafeUninitializedCapacity: count) { out in
                    _ = out.initialize(fromContentsOf: head)
                    out[head.count] = UInt8(ascii: "/")
                    var at = head.count + 1
                    for byte in tail {
                        switch byte {
                        case UInt8(ascii: "~") where escapes > 0: out[at] = UInt8(ascii: "~"); out[at + 1] = UInt8(ascii: "0"); at += 2
                        case UInt8(ascii: "/") where escapes > 0: out[at] = UInt8(ascii: "~"); out[at + 1] = UInt8(ascii: "1"); at += 2
                        default: out[at] = byte; at += 1
                        }
                    }
                    return count
                }
            }
        }
    }

    /// `~` → `~0`, `/` → `~1`. Byte-wise: every rule's `/` key goes through here.
    package static func escape(_ key: String) -> String {
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
