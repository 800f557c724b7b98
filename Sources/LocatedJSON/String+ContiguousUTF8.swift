extension String {
    /// Calls `body` with the string's UTF-8 bytes, in place when the storage is contiguous (native
    /// strings always are), else from a contiguous copy.
    @inlinable
    package func withContiguousUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }

    /// Whether any UTF-8 byte satisfies `predicate`. A loop over the contiguous bytes: `utf8.contains(where:)`
    /// walks the view's generic iterator, which showed up in the validator's profile.
    @inlinable @inline(__always)
    package func containsUTF8Byte(where predicate: (UInt8) -> Bool) -> Bool {
        withContiguousUTF8 { bytes in
            for byte in bytes where predicate(byte) { return true }
            return false
        }
    }
}
