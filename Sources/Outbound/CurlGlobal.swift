import CCurl
import Glibc

/// curl_global_init must run once before any other curl call and is not thread-safe itself; a Swift
/// static is initialised exactly once, whichever thread gets there first.
public enum CurlGlobal {
    private static let initialized: Bool = {
        // A peer that resets mid-handshake can make OpenSSL write to a dead socket; without this
        // the whole process would die of SIGPIPE instead of recording a `reset`.
        signal(SIGPIPE, SIG_IGN)
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return true
    }()

    public static func initializeOnce() { _ = initialized }
}
