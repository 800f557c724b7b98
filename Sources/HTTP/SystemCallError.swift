import Glibc

/// A failed system call: which call and the errno, turned into a Swift value right after the -1.
public struct SystemCallError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let code: Int32
    public init(call: String, code: Int32) { self.call = call; self.code = code }
    public var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
}

/// The outcome of a non-blocking call: would-block is a value, not a thrown error, because the
/// event loop sees it thousands of times a second.
enum IOStatus<T> {
    case done(T)
    case wouldBlock
    case failed(Int32)
}

/// Runs `body`, retrying EINTR; -1 with EAGAIN is `.wouldBlock`, other errnos are `.failed`.
@inline(__always) func nonBlocking<T: FixedWidthInteger>(_ body: () -> T) -> IOStatus<T> {
    while true {
        let result = body()
        if result != -1 { return .done(result) }
        let code = errno   // read first: any later call may overwrite it
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        return .failed(code)
    }
}

/// Runs a call that must succeed (setup), retrying EINTR; throws with its name otherwise.
@inline(__always) func checked<T: FixedWidthInteger>(_ call: String, _ body: () -> T) throws(SystemCallError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemCallError(call: call, code: code)
    }
}

/// Monotonic nanoseconds, for deadlines and durations.
@inline(__always) func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Wall-clock seconds, for the `Date` header (the coarse clock is enough and cheaper).
@inline(__always) func wallClockSeconds() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME_COARSE, &ts)
    return Int(ts.tv_sec)
}
