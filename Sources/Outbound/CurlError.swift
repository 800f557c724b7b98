import CCurl

/// A libcurl call that failed: an option it refused, a handle it could not make, or a transfer that
/// ended in an error. The message is curl's own words, with the option's number where one was refused.
public struct CurlError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Int
    public var message: String

    public init(code: CURLcode, message: String) {
        self.code = Int(code.rawValue)
        self.message = message
    }

    public var description: String { "curl error \(code): \(message)" }

    /// curl's short text for `code` ("Couldn't connect to server").
    static func text(_ code: CURLcode) -> String { String(cString: curl_easy_strerror(code)) }
}
