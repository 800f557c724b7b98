/// A look at a binary property list's objects before Foundation reads it, for two reasons.
///
/// - swift-corelibs-foundation's `PropertyListSerialization` crashes the process while bridging a
///   set (`NSSet`) to Swift (found by fuzzing the entitlements reader), and an entitlements file
///   never holds one, so any binary plist with a set in it is refused.
/// - The format stores an object once and lets containers refer to it by index, and Foundation
///   bridges every reference into a fresh Swift value: a chain of arrays that each refer twice to
///   the next is 2^depth values once read (a 456-byte file took 1.6 GB and 10.6 s; issue #30). So
///   the object graph is walked once from the top object, each object measured once (what it
///   expands to, and how deep it nests), and a file that would expand past the budgets below is
///   refused — in time linear in the file, without expanding anything.
///
/// The format (CFBinaryPList.c): "bplist0?", the objects, an offset table, and a 32-byte trailer
/// (6 unused bytes, the size of an offset, the size of an object reference, the object count, the
/// top object, the table's offset; big-endian). Every object is reached through the offset table,
/// so checking the marker byte at every offset the table lists covers every object Foundation can
/// create. The structural checks are CoreFoundation's own (a reference past the object count, a
/// length running into the offset table, a container that contains itself): a file this refuses as
/// malformed Foundation would refuse too — except a length written in more than 8 bytes, which no
/// writer produces.
enum BinaryPlistObjects {
    enum Problem: Error, Equatable {
        /// The trailer, offset table or an object does not describe the file.
        case malformed(String)
        /// An object of a kind the reader refuses: a set (marker 0xC_) or an ordered set (0xB_).
        case set(objectIndex: Int, offset: Int)
        /// Read, the file would be more than `maxValues` values (shared objects counted each time
        /// they are referred to, as Foundation creates them).
        case tooManyValues(limit: Int)
        /// Read, its strings and data would come to more than `maxExpandedBytes` bytes.
        case tooManyBytes(limit: Int)
        /// Containers nest deeper than `maxDepth`.
        case tooDeep(limit: Int)
    }

    /// What reading the file gives, counted as Foundation creates it.
    struct Shape: Equatable {
        /// Values created: every container, key and leaf, once per reference to it.
        var values: Int
        /// Bytes of string and data payload, once per reference.
        var bytes: Int
        /// The deepest nesting: a lone string is 1, a dictionary of strings 2.
        var depth: Int
    }

    /// What the check itself did, so a test can see that it is linear in the file whatever the
    /// file expands to: each object is measured at most once, each reference read at most once.
    struct Cost: Equatable {
        var objectsMeasured = 0
        var referencesFollowed = 0
    }

    static let trailerSize = 32
    /// An app's entitlements are a few dozen values (a built app's, with keychain groups and
    /// capabilities, about a hundred); 10,000 leaves two orders of magnitude of room and costs
    /// Foundation about a millisecond and a megabyte.
    static let maxValues = 10_000
    /// Entitlements nest two or three deep (a dictionary of arrays of strings); 32 is ample and
    /// keeps the walk's recursion (and Foundation's) shallow.
    static let maxDepth = 32
    /// The reader's own limit on a file's size: a file without shared references cannot pass it.
    static let maxExpandedBytes = 1 << 20

    /// Throws on the first set, on a file that expands past a budget, or when the file's structure
    /// is broken; returns what reading it gives otherwise.
    @discardableResult
    static func check(_ bytes: ArraySlice<UInt8>) throws(Problem) -> Shape {
        var cost = Cost()
        return try check(bytes, cost: &cost)
    }

    static func check(_ bytes: ArraySlice<UInt8>, cost: inout Cost) throws(Problem) -> Shape {
        let b = Array(bytes)
        guard b.count >= 8 + 1 + trailerSize else { throw .malformed("it is shorter than a header and a trailer") }
        guard b.starts(with: Array("bplist0".utf8)) else { throw .malformed("its header is not bplist0x") }
        let trailer = b.count - trailerSize
        let offsetSize = Int(b[trailer + 6])
        let referenceSize = Int(b[trailer + 7])
        let objectCount = bigEndian(b, at: trailer + 8, size: 8)
        let topObject = bigEndian(b, at: trailer + 16, size: 8)
        let tableOffset = bigEndian(b, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize) else { throw .malformed("its offsets are \(offsetSize) bytes long") }
        guard (1...8).contains(referenceSize) else { throw .malformed("its object references are \(referenceSize) bytes long") }
        guard let objectCount, let tableOffset, objectCount >= 1, tableOffset >= 9, tableOffset < trailer else {
            throw .malformed("its trailer does not point inside the file")
        }
        // The table runs from its offset to the trailer; the multiplication cannot overflow once the
        // count is known to be no larger than the bytes there.
        guard objectCount <= (trailer - tableOffset) / offsetSize,
              tableOffset + objectCount * offsetSize == trailer else {
            throw .malformed("its offset table does not fit between the objects and the trailer")
        }
        guard let topObject, topObject < objectCount else { throw .malformed("its top object is not one of its objects") }
        var offsets: [Int] = []
        offsets.reserveCapacity(objectCount)
        for index in 0..<objectCount {
            guard let offset = bigEndian(b, at: tableOffset + index * offsetSize, size: offsetSize),
                  offset >= 8, offset < tableOffset else {
                throw .malformed("object \(index) lies outside the object area")
            }
            let kind = b[offset] >> 4
            if kind == 0xC || kind == 0xB { throw .set(objectIndex: index, offset: offset) }
            offsets.append(offset)
        }
        var walk = Walk(bytes: b, offsets: offsets, referenceSize: referenceSize, objectsEnd: tableOffset)
        defer { cost = walk.cost }
        return try walk.measure(topObject, depth: 1)
    }

    /// One walk of the object graph from the top object, memoising each object's shape.
    private struct Walk {
        let bytes: [UInt8]
        let offsets: [Int]
        let referenceSize: Int
        /// Where the offset table starts: every object, with its length and references, ends before.
        let objectsEnd: Int
        var shapes: [Shape?]
        var inProgress: [Bool]
        var cost = Cost()

        init(bytes: [UInt8], offsets: [Int], referenceSize: Int, objectsEnd: Int) {
            self.bytes = bytes
            self.offsets = offsets
            self.referenceSize = referenceSize
            self.objectsEnd = objectsEnd
            shapes = Array(repeating: nil, count: offsets.count)
            inProgress = Array(repeating: false, count: offsets.count)
        }

        /// The shape of object `index` reached at nesting `depth` (the top object is at 1).
        /// Recursion stops at `maxDepth`, so the walk's own stack stays shallow.
        mutating func measure(_ index: Int, depth: Int) throws(Problem) -> Shape {
            if let known = shapes[index] {
                guard depth - 1 + known.depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
                return known
            }
            // CoreFoundation refuses a container inside itself too; without this the walk would not end.
            guard !inProgress[index] else { throw .malformed("object \(index) contains itself") }
            guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
            inProgress[index] = true
            cost.objectsMeasured += 1
            let offset = offsets[index]
            let marker = bytes[offset]
            var shape = Shape(values: 1, bytes: 0, depth: 1)
            switch marker >> 4 {
            case 0xA, 0xD:
                let (count, start) = try length(at: offset)
                // A dictionary lists its keys' references, then its values'. Compared by division,
                // so a hostile count cannot overflow the product.
                let perEntry = marker >> 4 == 0xD ? 2 : 1
                guard count <= (objectsEnd - start) / (referenceSize * perEntry) else {
                    throw .malformed("object \(index) has more references than the file has room for")
                }
                for position in 0..<(count * perEntry) {
                    cost.referencesFollowed += 1
                    guard let child = BinaryPlistObjects.bigEndian(bytes, at: start + position * referenceSize, size: referenceSize),
                          child < offsets.count else {
                        throw .malformed("object \(index) refers to an object the file does not have")
                    }
                    let inner = try measure(child, depth: depth + 1)
                    // Each part is within its budget, so the sums cannot overflow before the checks.
                    shape.values += inner.values
                    shape.bytes += inner.bytes
                    shape.depth = max(shape.depth, inner.depth + 1)
                    guard shape.values <= maxValues else { throw .tooManyValues(limit: maxValues) }
                    guard shape.bytes <= maxExpandedBytes else { throw .tooManyBytes(limit: maxExpandedBytes) }
                }
            case 0x4, 0x5, 0x6:
                // Data and ASCII strings are a byte per unit, UTF-16 strings two.
                let (count, start) = try length(at: offset)
                let width = marker >> 4 == 0x6 ? 2 : 1
                guard count <= (objectsEnd - start) / width else {
                    throw .malformed("object \(index) runs into the offset table")
                }
                shape.bytes = count * width
                guard shape.bytes <= maxExpandedBytes else { throw .tooManyBytes(limit: maxExpandedBytes) }
            default:
                // Numbers, dates, booleans, null, UIDs: fixed sizes, read by Foundation as they are.
                break
            }
            inProgress[index] = false
            shapes[index] = shape
            return shape
        }

        /// A container's or string's length: the marker's low nibble, or, when that is 0xF, the
        /// integer object that follows it. Returns the length and where the payload starts.
        func length(at offset: Int) throws(Problem) -> (count: Int, start: Int) {
            let nibble = Int(bytes[offset] & 0x0F)
            guard nibble == 0xF else { return (nibble, offset + 1) }
            // An integer marker 0x1n holds 2^n bytes; writers use 1, 2, 4 or 8.
            guard offset + 1 < objectsEnd, bytes[offset + 1] >> 4 == 0x1, bytes[offset + 1] & 0x0F <= 3 else {
                throw .malformed("the length of the object at byte \(offset) is not a 1, 2, 4 or 8-byte integer")
            }
            let size = 1 << Int(bytes[offset + 1] & 0x0F)
            guard offset + 2 + size <= objectsEnd,
                  let count = BinaryPlistObjects.bigEndian(bytes, at: offset + 2, size: size) else {
                throw .malformed("the length of the object at byte \(offset) runs into the offset table")
            }
            return (count, offset + 2 + size)
        }
    }

    /// The unsigned big-endian integer of `size` bytes at `at`, or nil past the end or beyond `Int`.
    private static func bigEndian(_ b: [UInt8], at: Int, size: Int) -> Int? {
        guard at >= 0, size <= 8, at + size <= b.count else { return nil }
        var value: UInt64 = 0
        for byte in b[at..<(at + size)] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
