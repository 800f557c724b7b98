extension Array where Element == UInt8 {
    /// Substring search over bytes: `String.contains(String)` goes through Foundation (CFStringFind)
    /// when Foundation is imported, which showed up as the validator's single largest cost.
    func containsSequence(_ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard count > 0, count <= self.count else { return count == 0 }
        return needle.withUTF8Buffer { target in
            let first = target[0]
            var i = 0
            while i <= self.count - count {
                if self[i] == first {
                    var j = 1
                    while j < count && self[i + j] == target[j] { j += 1 }
                    if j == count { return true }
                }
                i += 1
            }
            return false
        }
    }

    func hasPrefixSequence(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard count <= self.count else { return false }
        return prefix.withUTF8Buffer { target in
            for j in 0..<count where self[j] != target[j] { return false }
            return true
        }
    }
}
