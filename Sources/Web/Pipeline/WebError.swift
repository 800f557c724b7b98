/// Failures a handler reports to the person (or script) that asked. Anything else thrown is a bug
/// or an outage and becomes a 500 with a request id, its details only in the log.
public enum WebError: Error, Sendable {
    case notFound(String)
    case forbidden(String)
    case badRequest(String, field: String? = nil)
    case conflict(String, field: String? = nil)
    /// The request had the documented form, and a rule no schema can state refuses it.
    case unprocessable(String, field: String? = nil)
    case payloadTooLarge(String)
    case unsupportedMediaType(String)
    case unavailable(String)

    var status: Int {
        switch self {
        case .notFound: 404
        case .forbidden: 403
        case .badRequest: 400
        case .conflict: 409
        case .unprocessable: 422
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .unavailable: 503
        }
    }

    var message: String {
        switch self {
        case .notFound(let m), .forbidden(let m), .badRequest(let m, _), .conflict(let m, _), .unprocessable(let m, _),
             .payloadTooLarge(let m), .unsupportedMediaType(let m), .unavailable(let m): m
        }
    }

    var field: String? {
        switch self {
        case .badRequest(_, let f), .conflict(_, let f), .unprocessable(_, let f): f
        default: nil
        }
    }

    var title: String {
        switch self {
        case .notFound: "Not found"
        case .forbidden: "Not allowed"
        case .badRequest: "Bad request"
        case .conflict: "Conflict"
        case .unprocessable: "Not accepted"
        case .payloadTooLarge: "Too large"
        case .unsupportedMediaType: "Unsupported media type"
        case .unavailable: "Unavailable"
        }
    }
}
