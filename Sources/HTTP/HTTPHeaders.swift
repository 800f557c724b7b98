/// Header fields in the order received or added. Names compare ASCII case-insensitively
/// (RFC 9110 §5.1); values are kept as sent, without surrounding whitespace.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Field = (name: String, value: String)
    private var fields: [Field]

    public init() { fields = [] }
    public init(_ fields: [Field]) { self.fields = fields }
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of the field `name`, or nil. Setting replaces every field of that name
    /// (nil removes them).
    public subscript(name: String) -> String? {
        get {
            for field in fields where HTTPHeaders.namesEqual(field.name, name) { return field.value }
            return nil
        }
        set {
            if let newValue { set(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value of the field `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { HTTPHeaders.namesEqual($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field called `name` with one field holding `value`.
    public mutating func set(name: String, value: String) {
        remove(name: name)
        fields.append((name: name, value: value))
    }

    public mutating func remove(name: String) {
        fields.removeAll { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// True when the comma-separated list in field `name` holds `token` (case-insensitive),
    /// as for `Connection: keep-alive, Upgrade`.
    public func containsToken(_ token: String, in name: String) -> Bool {
        for field in fields where HTTPHeaders.namesEqual(field.name, name) {
            for part in field.value.utf8.split(separator: UInt8(ascii: ",")) {
                if HTTPHeaders.asciiEqualTrimmed(part, token.utf8) { return true }
            }
        }
        return false
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    static func namesEqual(_ a: String, _ b: String) -> Bool {
        var ia = a.utf8.makeIterator()
        var ib = b.utf8.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return true
            case let (x?, y?):
                if x != y && lowercased(x) != lowercased(y) { return false }
            default: return false
            }
        }
    }

    @inline(__always) static func lowercased(_ c: UInt8) -> UInt8 {
        (c >= 65 && c <= 90) ? c | 0x20 : c
    }

    static func asciiEqualTrimmed<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        var start = a.startIndex
        var end = a.endIndex
        while start < end, a[start] == 32 || a[start] == 9 { start = a.index(after: start) }
        while start < end {
            let last = a.index(end, offsetBy: -1)
            if a[last] == 32 || a[last] == 9 { end = last } else { break }
        }
        var ia = a[start..<end].makeIterator()
        var ib = b.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return true
            case let (x?, y?): if lowercased(x) != lowercased(y) { return false }
            default: return false
            }
        }
    }
}
