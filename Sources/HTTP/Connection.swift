/// One accepted socket, owned by exactly one event loop thread.
final class Connection {
    /// What the loop must remember about a request while its response is being produced.
    struct Pending {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
        var keepAlive: Bool
        var startedAt: UInt64
    }

    let fd: Int32
    let slot: Int
    let generation: UInt32
    let remoteAddress: String
    var state: ConnectionState
    /// Byte chunks queued for writev; `outputOffset` bytes of the first are already written.
    var output: [[UInt8]] = []
    var outputOffset = 0
    var outputBytes = 0
    /// The epoll events currently registered, so interest changes cost a syscall only when real.
    var registeredEvents: UInt32
    var lastActivity: UInt64
    var lastWriteProgress: UInt64
    var pending: Pending?
    /// The response's body is being streamed: no other response may start until it ends.
    var stream: ActiveStream?
    /// Set after an error response: we stopped writing and drain input until the peer closes,
    /// so the kernel does not reset the connection before the client has read our answer.
    var lingerUntil: UInt64?
    var lingerDiscarded = 0
    /// The next close must linger (the input may still hold unread bytes).
    var closeWithLinger = false
    var isClosed = false
    /// Parsing stopped because too much output was queued; resume once it drains.
    var stalledOnOutput = false

    init(fd: Int32, slot: Int, generation: UInt32, remoteAddress: String, limits: HTTPLimits,
         events: UInt32, now: UInt64) {
        self.fd = fd
        self.slot = slot
        self.generation = generation
        self.remoteAddress = remoteAddress
        state = ConnectionState(limits: limits)
        registeredEvents = events
        lastActivity = now
        lastWriteProgress = now
    }

    var token: UInt64 { UInt64(slot) << 32 | UInt64(generation) }

    func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if output.isEmpty { outputOffset = 0 }
        output.append(bytes)
        outputBytes += bytes.count
    }

    /// Drops `written` bytes from the front of the queue.
    func consume(_ written: Int) {
        var left = written
        outputBytes -= written
        var fullyWritten = 0
        for chunk in output {
            let remaining = chunk.count - (fullyWritten == 0 ? outputOffset : 0)
            if left >= remaining {
                left -= remaining
                fullyWritten += 1
                outputOffset = 0
            } else {
                if fullyWritten == 0 { outputOffset += left } else { outputOffset = left }
                break
            }
        }
        if fullyWritten == output.count {
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
        } else if fullyWritten > 0 {
            output.removeFirst(fullyWritten)
        }
    }
}
