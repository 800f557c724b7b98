// libFuzzer target for the HTTP request parser, compiled by scripts/fuzz with
// `swiftc -sanitize=fuzzer,address` directly against the parser's source files.
//
// Beyond "does not crash", it checks that the parser's answer does not depend on how the bytes
// were split into reads: the same input fed whole and fed in pieces (piece size from the first
// byte) must give the same requests and the same failure status, in the same order.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let piece = Int(data[0] % 16) + 1
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let limits = HTTPLimits(maxRequestLineBytes: 96, maxHeaderBytes: 256, maxHeaderCount: 8, maxBodyBytes: 64)
    let whole = outcomes(of: input, piece: input.count, limits: limits)
    let split = outcomes(of: input, piece: piece, limits: limits)
    if whole != split {
        fatalError("split-dependent result: whole \(whole) vs pieces of \(piece) \(split)")
    }
    return 0
}

/// Runs the connection state machine over `input` delivered `piece` bytes at a time; returns a
/// summary of each decision (dispatched request or rejection), ignoring 100-continue, which
/// legitimately depends on timing.
func outcomes(of input: [UInt8], piece: Int, limits: HTTPLimits) -> [String] {
    var state = ConnectionState(limits: limits)
    var results: [String] = []
    var offset = 0
    var clock: UInt64 = 0
    while offset < input.count && !state.isClosing {
        let end = min(input.count, offset + max(1, piece))
        input[offset..<end].withUnsafeBytes { state.receive($0, now: clock) }
        offset = end
        clock += 1
        loop: while true {
            switch state.nextAction(now: clock) {
            case .none:
                break loop
            case .sendContinue:
                continue
            case .reject(let status):
                results.append("reject \(status.code)")
                break loop
            case .dispatch(let request):
                precondition(request.body.count <= limits.maxBodyBytes, "body over the limit")
                precondition(request.path.hasPrefix("/") || request.path == "*", "path \(request.path)")
                results.append("\(request.method) \(request.target) \(request.version) \(request.headers.count) \(request.body) \(request.keepAlive)")
                state.responseQueued(keepAlive: request.keepAlive, now: clock)
            }
        }
    }
    state.endOfInput()
    if case .dispatch = state.nextAction(now: clock) { results.append("dispatch after end") }
    return results
}
