/// A dynamic-rule pattern compiled once into a short program over UTF-16 code units (Android compares
/// Java strings), matched in one left-to-right pass: linear in the input by construction, because
/// Android's `*` never backtracks (assetlinks-spec.md §4.4).
///
/// Android hands each pattern to `PatternMatcher`: no wildcard is LITERAL, a single trailing `*` is
/// PREFIX, anything else a simple GLOB where `*` becomes `.*` and `?` becomes `.`. The program below is
/// what `PatternMatcher`'s glob walk does with such a pattern, decided once per pattern instead of per
/// character: a `*` skips to the *first* occurrence of the character after it and consumes it.
public struct DynamicPattern: Hashable, Sendable {
    enum Step: Hashable, Sendable {
        /// The next unit must be this one.
        case literal(UInt16)
        /// `?`: any one unit.
        case any
        /// `*` followed by a unit: skip to its first occurrence and consume it, or fail.
        case skipTo(UInt16)
        /// A trailing `*`: whatever is left matches, including nothing.
        case acceptRest
    }

    enum Kind: Hashable, Sendable {
        case literal([UInt16])
        case prefix([UInt16])
        case glob([Step])
    }

    public let text: String
    let kind: Kind

    public init(_ text: String) {
        self.text = text
        let units = Array(text.utf16)
        let wildcards = units.filter { $0 == Self.star || $0 == Self.question }.count
        if wildcards == 0 {
            kind = .literal(units)
        } else if wildcards == 1, units.last == Self.star {
            kind = .prefix(Array(units.dropLast()))
        } else {
            kind = .glob(Self.compile(units))
        }
    }

    static let star = UInt16(UInt8(ascii: "*"))
    static let question = UInt16(UInt8(ascii: "?"))
    static let dot = UInt16(UInt8(ascii: "."))

    /// Walks the pattern the way the glob matcher will, recording what each step asks of the input.
    /// The one quirk this keeps (spec §4.4 rule 5): after a `*`, the character searched for is the next
    /// one of the *converted* pattern, so `*?` searches for a literal `.` and `**` for `.` then `*`.
    private static func compile(_ units: [UInt16]) -> [Step] {
        var steps: [Step] = []
        var i = 0
        while i < units.count {
            let unit = units[i]
            if unit == star {
                guard i + 1 < units.count else {
                    steps.append(.acceptRest)
                    break
                }
                // `?` and `*` convert to text starting with `.`, which the skip then looks for literally;
                // a `*` leaves its own `*` behind as a literal to match next.
                let next = units[i + 1]
                if next == star {
                    steps.append(.skipTo(dot))
                    steps.append(.literal(star))
                } else {
                    steps.append(.skipTo(next == question ? dot : next))
                }
                i += 2
            } else {
                steps.append(unit == question ? .any : .literal(unit))
                i += 1
            }
        }
        return steps
    }

    /// Whether the whole of `input` matches.
    public func matches(_ input: [UInt16]) -> Bool {
        input.withUnsafeBufferPointer { matches($0) }
    }

    func matches(_ input: UnsafeBufferPointer<UInt16>) -> Bool { kind.matches(input) }

    /// A `*` followed by more text: the place where Android's matching differs from a backtracking glob.
    var hasInnerStar: Bool {
        guard case .glob(let steps) = kind else { return false }
        return steps.contains { if case .skipTo = $0 { true } else { false } }
    }

    /// Matches every input (`*`).
    var matchesEverything: Bool {
        if case .prefix(let units) = kind { return units.isEmpty }
        return false
    }
}

extension DynamicPattern.Kind {
    func matches(_ input: UnsafeBufferPointer<UInt16>) -> Bool {
        switch self {
        case .literal(let units):
            return units.count == input.count && Self.startsWith(input, units)
        case .prefix(let units):
            return units.count <= input.count && Self.startsWith(input, units)
        case .glob(let steps):
            var at = 0
            for step in steps {
                // Input used up: only a trailing `*` can still match (nothing).
                if at == input.count { return step == .acceptRest }
                switch step {
                case .literal(let unit):
                    guard input[at] == unit else { return false }
                    at += 1
                case .any:
                    at += 1
                case .skipTo(let unit):
                    while at < input.count && input[at] != unit { at += 1 }
                    guard at < input.count else { return false }
                    at += 1
                case .acceptRest:
                    return true
                }
            }
            return at == input.count
        }
    }

    private static func startsWith(_ input: UnsafeBufferPointer<UInt16>, _ units: [UInt16]) -> Bool {
        units.withUnsafeBufferPointer { units in
            for i in units.indices where units[i] != input[i] { return false }
            return true
        }
    }
}
