import Registry

/// `POST /api/v1/check-now`: "check now" for hosts by name, as `aasa-monitor check-now HOST…` asks
/// it (the registry's `requestCheck(hosts:)`): each host is requested, paused, not registered, or
/// not a host name at all, and the answer says which.
enum CheckNowAPI {
    static let inputSchema = APISchema.object([
        // No pattern: a host that is not one is a refusal in the answer, with why, as on the command line.
        ("hosts", .array(.string(pattern: nil, maxLength: 300, description: "A registered host name (Unicode or Punycode)",
                                 example: "example.com"), maxItems: 1000)),
    ], required: ["hosts"])

    struct Refused: Encodable { let input: String, reason: String }
    struct Report: Encodable {
        /// ASCII host names now requested, paused (not requested until resumed), and not registered.
        let requested: [String], paused: [String], not_registered: [String]
        let refused: [Refused]
    }

    static func run(_ c: RequestContext) throws -> WebResponse {
        let members = try APIRequest.body(c, inputSchema)
        let hosts = members["hosts"]?.array?.compactMap(\.string) ?? []
        let request = try c.registry.requestCheck(hosts: hosts)
        return APIResponses.json(Report(requested: request.requested, paused: request.paused, not_registered: request.notRegistered,
                                        refused: request.refused.map { Refused(input: $0.input, reason: $0.reason) }), status: 202)
    }
}
