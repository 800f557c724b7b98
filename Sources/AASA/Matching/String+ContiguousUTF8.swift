extension String {
    /// Calls `body` with the string's UTF-8 bytes, in place when the storage is contiguous (native
    /// strings always are), else from a contiguous copy.
    func withContiguousUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
