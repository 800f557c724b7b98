import Registry
import Vocabulary

/// `POST /api/v1/import`: `aasa-monitor import` over the API. The list goes through the registry's
/// `importList`, the path the local command takes, so the same file gives the same report either way.
enum ImportAPI {
    /// The HTTP server takes bodies up to 1 MB; a list in a JSON string fits with room for its escapes.
    static let maxBytes = 1 << 20

    static let inputSchema = APISchema.object([
        ("list", .string(pattern: nil, maxLength: 900_000,
                         description: "The import file's text: one host per line, or CSV lines host,appID,… (as aasa-monitor import reads it)",
                         example: "example.com\nshop.example,ABCDE12345.com.example.shop\n")),
        ("platforms", .stringEnum(WatchedPlatforms.allCases.map(\.rawValue))),
    ], required: ["list"])

    struct Refused: Encodable {
        let line: Int, text: String, reason: String
        /// The whole refusal as the CLI prints it: "line 3: host: reason".
        let message: String
    }

    struct Report: Encodable {
        /// Display names (Unicode) of the domains registered, and of those already registered.
        let added: [String], skipped: [String]
        let refused: [Refused]
    }

    static func run(_ c: RequestContext) throws -> WebResponse {
        let members = try APIRequest.body(c, inputSchema, maxBytes: maxBytes)
        // The schema held platforms to the enum, so the fallback is never taken.
        let platforms = members["platforms"]?.string.flatMap(WatchedPlatforms.init(rawValue:)) ?? .both
        let report = try c.registry.importList(members["list"]?.string ?? "", platforms: platforms)
        return APIResponses.json(Report(added: report.added, skipped: report.skipped, refused: report.refused.map {
            Refused(line: $0.line, text: $0.text, reason: $0.reason, message: $0.description)
        }))
    }
}
