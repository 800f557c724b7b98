/// Size limits the parser enforces while bytes arrive, so an oversized request is refused
/// before it is buffered in full.
public struct HTTPLimits: Sendable, Equatable {
    /// Longest request line (method, target, version); longer gets 414.
    public var maxRequestLineBytes: Int
    /// Largest request head (request line plus header fields); larger gets 431.
    public var maxHeaderBytes: Int
    /// Most header fields; more gets 431.
    public var maxHeaderCount: Int
    /// Largest request body (decoded, for chunked bodies); larger gets 413.
    public var maxBodyBytes: Int

    public init(maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 16 * 1024,
                maxHeaderCount: Int = 100, maxBodyBytes: Int = 1 << 20) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}
