/// A path from the document root to a value, turned into an RFC 6901 JSON pointer only when a
/// finding needs one, so the happy path builds no strings.
struct JSONPath: Sendable {
    enum Step: Sendable {
        case key(String)
        case index(Int)
    }

    private(set) var steps: [Step] = []

    static let root = JSONPath()

    func appending(_ key: String) -> JSONPath { appending(step: .key(key)) }

    func appending(_ index: Int) -> JSONPath { appending(step: .index(index)) }

    /// One right-sized allocation per step (appending to a copy would grow it by doubling).
    private func appending(step: Step) -> JSONPath {
        var copy = JSONPath()
        copy.steps.reserveCapacity(steps.count + 1)
        copy.steps.append(contentsOf: steps)
        copy.steps.append(step)
        return copy
    }

    mutating func push(_ step: Step) { steps.append(step) }
    mutating func pop() { steps.removeLast() }

    /// `/applinks/details/0/components/2/~1` — `~` and `/` in keys escaped as `~0` and `~1`.
    var pointer: String {
        var out = ""
        for step in steps {
            out.append("/")
            switch step {
            case .index(let i): out.append(String(i))
            case .key(let k): out.append(JSONPath.escape(k))
            }
        }
        return out
    }

    static func escape(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

extension String {
    /// Foundation-free replacement, so the AASA core stays small.
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for ch in self {
            if ch == target { out.append(replacement) } else { out.append(ch) }
        }
        return out
    }
}
