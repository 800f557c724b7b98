import ConfigFile
import Registry

/// Config as code over the API: `GET /api/v1/config` is `export --yaml`, `POST /api/v1/config/plan`
/// is `apply --dry-run` and `POST /api/v1/config/apply` is `apply`. The file is read and applied by
/// the same `ConfigReader` and `DomainRegistry.apply` the local commands use, so a file gives the
/// same plan, the same refusal (every problem with its line) and the same result either way.
///
/// `${NAME}` references are resolved against the `environment` the request sends (the client's
/// variables the file names), never against the server's own environment: a file could otherwise
/// read any secret of the server process into a channel it then sends somewhere.
enum ConfigAPI {
    static let maxBytes = 1 << 20

    static let inputSchema = APISchema.object([
        ("yaml", .string(pattern: nil, maxLength: 900_000, description: "The config file's text, as aasa-monitor apply reads it",
                         example: "domains:\n  - host: example.com\n")),
        ("environment", .array(.object([("name", .string(pattern: APIPatterns.environmentName, maxLength: 200, example: "SLACK_URL")),
                                        ("value", .string(pattern: nil, maxLength: 64 << 10, example: "https://hooks.slack.com/services/T0/B0/x"))],
                                       required: ["name", "value"]),
                               maxItems: 500)),
        ("prune", .boolean),
    ], required: ["yaml"])

    static func export(_ c: RequestContext) throws -> WebResponse {
        _ = try APIRequest.query(c, [])
        struct Body: Encodable { let yaml: String }
        return APIResponses.json(Body(yaml: try c.registry.exportYAML()))
    }

    /// A read-only token may plan (a drift check in CI changes nothing); applying needs an admin token (the route's access).
    static func plan(_ c: RequestContext) throws -> WebResponse { try run(c, dryRun: true) }

    static func apply(_ c: RequestContext) throws -> WebResponse { try run(c, dryRun: false) }

    static func run(_ c: RequestContext, dryRun: Bool) throws -> WebResponse {
        let members = try APIRequest.body(c, inputSchema, maxBytes: maxBytes)
        var environment: [String: String] = [:]
        for variable in members["environment"]?.array?.compactMap(\.object) ?? [] {
            if let name = variable["name"]?.string, let value = variable["value"]?.string { environment[name] = value }
        }
        let reading = ConfigReader.reading(Array((members["yaml"]?.string ?? "").utf8), environment: environment)
        guard let document = reading.document else { return refused(ConfigRefusal(reading.problems)) }
        do {
            let plan = try c.registry.apply(document, prune: members["prune"]?.bool ?? false, dryRun: dryRun, readerProblems: reading.problems)
            return APIResponses.json(ConfigPlanJSON(plan))
        } catch let refusal as ConfigRefusal {
            return refused(refusal)
        }
    }

    /// 422 with the error every operation gives, and every problem with its line beside it.
    static func refused(_ refusal: ConfigRefusal) -> WebResponse {
        struct Inner: Encodable { let message: String, field: String }
        struct Body: Encodable { let error: Inner, problems: [ConfigProblemJSON] }
        let count = refusal.problems.count
        return APIResponses.json(Body(error: Inner(message: "The file was refused and nothing was changed (\(count) problem\(count == 1 ? "" : "s")): "
                                                   + refusal.problems.map(\.description).joined(separator: "; "), field: "yaml"),
                                      problems: refusal.problems.map(ConfigProblemJSON.init)), status: 422)
    }
}
