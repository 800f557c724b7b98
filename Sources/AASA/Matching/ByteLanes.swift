/// Eight bytes tested at once in a `UInt64` (SWAR). URLs are short runs of bytes scanned for a few
/// delimiters; testing a word per step takes a fraction of the instructions of a byte per step.
///
/// Each test leaves bit 7 set in exactly the lanes that hit. The formulas add only to the low seven
/// bits of each lane, so no carry crosses into the next lane and every lane's answer is exact (the
/// shorter `(v - 0x01…) & ~v` trick can flag a lane above a real hit, which breaks masking off lanes).
/// Lanes are in memory order: the first byte is the lowest lane.
enum ByteLanes {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080
    static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// The eight bytes at `offset`, first byte in the lowest lane.
    @inline(__always)
    static func load(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        // Callers check offset + 8 <= count, so the buffer is non-empty and has a base.
        guard let base = bytes.baseAddress else { return 0 }
        return UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// Lanes below `limit` (at most 0x80): bit 7 clear and low seven bits + (0x80 - limit) below 0x80.
    @inline(__always)
    static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        ~(((word & lows) &+ ones &* UInt64(0x80 - limit)) | word) & highs
    }

    /// Lanes equal to `byte`.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        below(word ^ (ones &* UInt64(byte)), 1)
    }

    /// Lanes outside printable ASCII 0x21...0x7E: below 0x21, or 0x7F and above (low seven bits + 1
    /// reach bit 7, or bit 7 is already set).
    @inline(__always)
    static func outsidePrintable(_ word: UInt64) -> UInt64 {
        below(word, 0x21) | ((((word & lows) &+ ones) | word) & highs)
    }

    /// Index of the lowest hit lane (the mask is non-zero).
    @inline(__always)
    static func firstLane(_ mask: UInt64) -> Int {
        mask.trailingZeroBitCount >> 3
    }

    /// Whether every byte is ASCII (below 0x80).
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var high: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            high |= load(bytes, at: index) & highs
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index] & 0x80)
            index += 1
        }
        return high == 0
    }
}
