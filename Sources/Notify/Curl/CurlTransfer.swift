import CCurl
import CShim

/// A libcurl easy handle for one blocking transfer: options in, response code, body and
/// curl's own error text out. Used by one thread at a time; freed when the value goes away.
final class CurlTransfer {
    struct Failure: Error, CustomStringConvertible {
        var code: CURLcode
        var message: String
        var description: String { "curl error \(code.rawValue): \(message)" }
    }

    private let handle: UnsafeMutableRawPointer
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    /// Bytes the server sent back (HTTP body); capped so a hostile receiver cannot fill memory.
    fileprivate(set) var responseBody: [UInt8] = []
    fileprivate let responseLimit: Int
    /// Header lines for HTTP; for SMTP libcurl hands every server reply line here, which is how
    /// the last SMTP reply ("250 2.0.0 Ok: queued") is recorded per attempt.
    fileprivate(set) var headerLines: [String] = []
    fileprivate var upload: [UInt8] = []
    fileprivate var uploadOffset = 0

    init(responseLimit: Int = 64 * 1024) throws {
        guard let h = curl_easy_init() else {
            throw Failure(code: CURLE_FAILED_INIT, message: "curl_easy_init returned NULL")
        }
        handle = h
        self.responseLimit = responseLimit
        try set(CURLOPT_NOSIGNAL, 1)  // threads: libcurl must not use SIGALRM for DNS timeouts
        try set(CURLOPT_ERRORBUFFER, pointer: &errorBuffer)
        let me = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_WRITEFUNCTION, pointer: unsafeBitCast(curlTransferWrite, to: UnsafeRawPointer.self))
        try set(CURLOPT_WRITEDATA, pointer: me)
        try set(CURLOPT_HEADERFUNCTION, pointer: unsafeBitCast(curlTransferHeader, to: UnsafeRawPointer.self))
        try set(CURLOPT_HEADERDATA, pointer: me)
    }

    deinit {
        for list in lists { curl_slist_free_all(list) }
        curl_easy_cleanup(handle)
    }

    func set(_ option: CURLoption, _ value: Int) throws {
        try check(cshim_curl_setopt_long(handle, option, value), option)
    }

    /// Strings are copied by libcurl (CURLOPT_* string options since 7.17), so a temporary is enough.
    func set(_ option: CURLoption, _ value: String) throws {
        try value.withCString { try check(cshim_curl_setopt_ptr(handle, option, $0), option) }
    }

    func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws {
        try check(cshim_curl_setopt_ptr(handle, option, pointer), option)
    }

    /// A string list (headers, recipients) that must outlive the transfer: freed in deinit.
    func set(_ option: CURLoption, list values: [String]) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        for value in values {
            guard let next = curl_slist_append(list, value) else {
                if let list { curl_slist_free_all(list) }
                throw Failure(code: CURLE_OUT_OF_MEMORY, message: "curl_slist_append failed")
            }
            list = next
        }
        guard let list else { return }
        lists.append(list)
        try set(option, pointer: UnsafeRawPointer(list))
    }

    /// Bytes sent through the read callback (SMTP DATA).
    func setUpload(_ bytes: [UInt8]) throws {
        upload = bytes
        uploadOffset = 0
        try set(CURLOPT_UPLOAD, 1)
        try set(CURLOPT_READFUNCTION, pointer: unsafeBitCast(curlTransferRead, to: UnsafeRawPointer.self))
        try set(CURLOPT_READDATA, pointer: Unmanaged.passUnretained(self).toOpaque())
        try check(cshim_curl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(bytes.count)), CURLOPT_INFILESIZE_LARGE)
    }

    /// POST body; COPYPOSTFIELDS because libcurl would otherwise keep our pointer past this call.
    func setPostBody(_ bytes: [UInt8]) throws {
        try set(CURLOPT_POSTFIELDSIZE, bytes.count)
        try bytes.withUnsafeBytes { try set(CURLOPT_COPYPOSTFIELDS, pointer: $0.baseAddress) }
    }

    func perform() throws {
        responseBody.removeAll(keepingCapacity: true)
        headerLines.removeAll()
        uploadOffset = 0
        errorBuffer[0] = 0
        let code = curl_easy_perform(handle)
        if code != CURLE_OK {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(code: code, message: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
        }
    }

    /// HTTP status, or the last SMTP reply code.
    var responseCode: Int {
        var code = 0
        _ = cshim_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws {
        guard code == CURLE_OK else {
            throw Failure(code: code, message: "setting option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
        }
    }
}

private let curlTransferWrite: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let total = size * count
    let room = max(0, transfer.responseLimit - transfer.responseBody.count)
    // Keep what fits and report everything consumed: an oversized answer is not an error here.
    data.withMemoryRebound(to: UInt8.self, capacity: total) {
        transfer.responseBody.append(contentsOf: UnsafeBufferPointer(start: $0, count: min(total, room)))
    }
    return total
}

private let curlTransferHeader: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let total = size * count
    if transfer.headerLines.count < 200 {
        let bytes = data.withMemoryRebound(to: UInt8.self, capacity: total) { Array(UnsafeBufferPointer(start: $0, count: total)) }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: ["\r", "\n"])
        if !line.isEmpty { transfer.headerLines.append(line) }
    }
    return total
}

private let curlTransferRead: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
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

private extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        var s = Substring(self)
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        return String(s)
    }
}
