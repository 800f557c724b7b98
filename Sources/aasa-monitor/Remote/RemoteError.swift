import ArgumentParser

/// Why a command run with `--server` did not get its answer, in words that say what to do, with
/// the exit status scripts branch on (sysexits.h): 64 the server or token was given wrongly, 69 the
/// server could not be reached or failed (connection, TLS, 5xx), 76 it answered something this
/// client cannot read, 77 it refused the token (401) or the token may not change things (403).
/// Other refusals (400, 404, 409, 413, 422) are `.refused`, exit 65: the request's data was refused.
enum RemoteError: Error, Equatable {
    case usage(String)
    case unreachable(String)
    case unauthorized
    case readOnlyToken
    case refused(status: Int, message: String)
    case serverFailed(status: Int, message: String)
    case unreadableAnswer(String)

    var message: String {
        switch self {
        case .usage(let why): why
        case .unreachable(let why): why
        case .unauthorized:
            "the server refused the token (HTTP 401): it is missing, mistyped, revoked or from another server. "
                + "Create one on the server with aasa-monitor token create NAME and give it by --token-file PATH or AASA_MONITOR_TOKEN."
        case .readOnlyToken:
            "the token is read-only (HTTP 403): it may read (status, export, apply --dry-run) but not change anything. "
                + "Use a token created without --read-only."
        case .refused(let status, let message): "the server refused the request (HTTP \(status)): \(message)"
        case .serverFailed(let status, let message): "the server failed (HTTP \(status)): \(message)"
        case .unreadableAnswer(let why): "the server's answer cannot be read: \(why)"
        }
    }

    var exitStatus: Int32 {
        switch self {
        case .usage: 64           // EX_USAGE
        case .refused: 65         // EX_DATAERR
        case .unreachable, .serverFailed: 69  // EX_UNAVAILABLE
        case .unreadableAnswer: 76  // EX_PROTOCOL
        case .unauthorized, .readOnlyToken: 77  // EX_NOPERM
        }
    }

    /// Printed on standard error (escaped: the server's words and the URL are not ours), then the exit status.
    func exit() -> ExitCode {
        StandardError.log("error: \(message)")
        return ExitCode(exitStatus)
    }
}
