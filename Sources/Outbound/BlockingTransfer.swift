import CCurl
import CShim

/// One blocking exchange on a `CurlEasy`: a request out (a POST body or an upload), the response code,
/// a capped response body and the header or reply lines back. For senders that run on a thread of
/// their own (webhooks, SMTP); the crawler drives its handles through a multi loop instead.
public final class BlockingTransfer {
    public let easy: CurlEasy
    /// Bytes the server sent back (HTTP body); capped so a hostile receiver cannot fill memory.
    public fileprivate(set) var responseBody: [UInt8] = []
    fileprivate let responseLimit: Int
    /// Header lines for HTTP; for SMTP libcurl hands every server reply line here, which is how
    /// the last SMTP reply ("250 2.0.0 Ok: queued") is recorded per attempt.
    public fileprivate(set) var headerLines: [String] = []
    fileprivate var upload: [UInt8] = []
    fileprivate var uploadOffset = 0

    /// A handle that may connect only to `pin`'s addresses, for the URL `url` read by curl's parser.
    public init(_ url: OutboundURL, pinnedTo pin: PinnedConnection, responseLimit: Int = 64 * 1024) throws(CurlError) {
        easy = try CurlEasy()
        self.responseLimit = responseLimit
        try easy.set(CURLOPT_URL, url.url)
        try easy.pin(pin)
        let me = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        try easy.set(CURLOPT_WRITEFUNCTION, pointer: unsafeBitCast(blockingWrite, to: UnsafeRawPointer.self))
        try easy.set(CURLOPT_WRITEDATA, pointer: me)
        try easy.set(CURLOPT_HEADERFUNCTION, pointer: unsafeBitCast(blockingHeader, to: UnsafeRawPointer.self))
        try easy.set(CURLOPT_HEADERDATA, pointer: me)
    }

    /// Bytes sent through the read callback (SMTP DATA).
    public func setUpload(_ bytes: [UInt8]) throws(CurlError) {
        upload = bytes
        uploadOffset = 0
        try easy.set(CURLOPT_UPLOAD, 1)
        try easy.set(CURLOPT_READFUNCTION, pointer: unsafeBitCast(blockingRead, to: UnsafeRawPointer.self))
        try easy.set(CURLOPT_READDATA, pointer: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
        try easy.set(CURLOPT_INFILESIZE_LARGE, offset: Int64(bytes.count))
    }

    /// POST body; COPYPOSTFIELDS because libcurl would otherwise keep our pointer past this call.
    public func setPostBody(_ bytes: [UInt8]) throws(CurlError) {
        try easy.set(CURLOPT_POSTFIELDSIZE, bytes.count)
        let outcome = bytes.withUnsafeBytes { raw in Result { () throws(CurlError) in try easy.set(CURLOPT_COPYPOSTFIELDS, pointer: raw.baseAddress) } }
        try outcome.get()
    }

    public func perform() throws(CurlError) {
        responseBody.removeAll(keepingCapacity: true)
        headerLines.removeAll()
        uploadOffset = 0
        easy.resetForTransfer()
        let code = curl_easy_perform(easy.handle)
        if code != CURLE_OK { throw easy.failure(code) }
    }

    /// HTTP status, or the last SMTP reply code; 0 when there was none.
    public var responseCode: Int { easy.responseCode }
}

private func transfer(_ context: UnsafeMutableRawPointer) -> BlockingTransfer {
    Unmanaged<BlockingTransfer>.fromOpaque(context).takeUnretainedValue()
}

private let blockingWrite: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = transfer(context)
    let total = size * count
    let room = max(0, transfer.responseLimit - transfer.responseBody.count)
    // Keep what fits and report everything consumed: an oversized answer is not an error here.
    data.withMemoryRebound(to: UInt8.self, capacity: total) {
        transfer.responseBody.append(contentsOf: UnsafeBufferPointer(start: $0, count: min(total, room)))
    }
    return total
}

private let blockingHeader: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = transfer(context)
    let total = size * count
    if transfer.headerLines.count < 200 {
        let bytes = data.withMemoryRebound(to: UInt8.self, capacity: total) { Array(UnsafeBufferPointer(start: $0, count: total)) }
        var line = Substring(String(decoding: bytes, as: UTF8.self))
        while let last = line.last, last == "\r" || last == "\n" || last == "\r\n" { line = line.dropLast() }
        if !line.isEmpty { transfer.headerLines.append(String(line)) }
    }
    return total
}

private let blockingRead: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = transfer(context)
    let n = min(size * count, transfer.upload.count - transfer.uploadOffset)
    guard n > 0 else { return 0 }
    transfer.upload.withUnsafeBufferPointer { source in
        guard let base = source.baseAddress else { return }
        buffer.withMemoryRebound(to: UInt8.self, capacity: n) {
            $0.update(from: base + transfer.uploadOffset, count: n)
        }
    }
    transfer.uploadOffset += n
    return n
}
