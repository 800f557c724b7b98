/// A look at a binary property list's objects before Foundation reads it. swift-corelibs-foundation's
/// `PropertyListSerialization` crashes the process while bridging a set (`NSSet`) to Swift (found by
/// fuzzing the entitlements reader), and an entitlements file never holds one, so the reader refuses
/// any binary plist with a set in it, without handing it to Foundation.
///
/// The format (CFBinaryPList.c): "bplist0?", the objects, an offset table, and a 32-byte trailer
/// (6 unused bytes, the size of an offset, the size of an object reference, the object count, the
/// top object, the table's offset; big-endian). Every object is reached through the offset table,
/// so checking the marker byte at every offset the table lists covers every object Foundation can
/// create. The trailer checks are CoreFoundation's own: a file this refuses as malformed Foundation
/// would refuse too.
enum BinaryPlistObjects {
    enum Problem: Error, Equatable {
        /// The trailer or offset table does not describe the file.
        case malformed(String)
        /// An object of a kind the reader refuses: a set (marker 0xC_) or an ordered set (0xB_).
        case set(objectIndex: Int, offset: Int)
    }

    static let trailerSize = 32

    /// Throws on the first set, or when the file's structure is broken; returns otherwise.
    static func check(_ bytes: ArraySlice<UInt8>) throws(Problem) {
        let b = Array(bytes)
        guard b.count >= 8 + 1 + trailerSize else { throw .malformed("it is shorter than a header and a trailer") }
        guard b.starts(with: Array("bplist0".utf8)) else { throw .malformed("its header is not bplist0x") }
        let trailer = b.count - trailerSize
        let offsetSize = Int(b[trailer + 6])
        let objectCount = bigEndian(b, at: trailer + 8, size: 8)
        let tableOffset = bigEndian(b, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize) else { throw .malformed("its offsets are \(offsetSize) bytes long") }
        guard let objectCount, let tableOffset, objectCount >= 1, tableOffset >= 9, tableOffset < trailer else {
            throw .malformed("its trailer does not point inside the file")
        }
        // The table runs from its offset to the trailer; the multiplication cannot overflow once the
        // count is known to be no larger than the bytes there.
        guard objectCount <= (trailer - tableOffset) / offsetSize,
              tableOffset + objectCount * offsetSize == trailer else {
            throw .malformed("its offset table does not fit between the objects and the trailer")
        }
        for index in 0..<objectCount {
            guard let offset = bigEndian(b, at: tableOffset + index * offsetSize, size: offsetSize),
                  offset >= 8, offset < tableOffset else {
                throw .malformed("object \(index) lies outside the object area")
            }
            let kind = b[offset] >> 4
            if kind == 0xC || kind == 0xB { throw .set(objectIndex: index, offset: offset) }
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
