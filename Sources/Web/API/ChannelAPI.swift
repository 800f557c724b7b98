import Foundation
import Notify
import Store
import Vocabulary

/// `/api/v1/channels`: list, add, remove and test notification channels. A credential goes in and
/// never comes out: no response carries a channel's secret (a webhook's signing secret is returned
/// once, when it is made, as the settings page shows it once).
enum ChannelAPI {
    struct ChannelJSON: Encodable {
        let id: Int64
        let kind: String
        let name: String
        /// The address or URL; read-only tokens see webhook URLs redacted (they are credentials).
        let target: String
        let enabled: Bool
        let min_severity: String
        let domain_ids: [Int64]
        let disabled_reason: String?
        let last_delivery: LastDelivery?
    }

    struct LastDelivery: Encodable {
        let state: String
        let error: String?
        let at: Date
    }

    /// The body the document publishes and the server enforces (`APIRequest`): the kinds, the JSON
    /// types, the forms a credential and a chat id take, sizes. What a kind then refuses (PagerDuty
    /// without its routing key, a URL the webhook policy refuses, a template that does not render
    /// into JSON) and ids of domains or apps that do not exist are 422: rules no schema states.
    static let inputSchema = APISchema.object([
        ("kind", .stringEnum(ChannelKind.allCases.map(\.rawValue))),
        ("name", .string(pattern: nil, maxLength: 200, example: "on-call")),
        ("target", .string(pattern: nil, maxLength: 2048,
                           description: "The address or URL; empty or left out for pagerduty, opsgenie and telegram means the provider's API",
                           example: "ops@example.com")),
        // Sent in a header or a URL path: one line of printable ASCII (surrounding blanks are trimmed).
        ("credential", .string(pattern: APIPatterns.credential, maxLength: 512,
                               description: "Routing key, API key, bot token, access token, or a webhook's whsec_ signing secret; stored, never returned")),
        ("chat_id", .string(pattern: APIPatterns.telegramChat, maxLength: 65, description: "Telegram: a chat's number, or @channelname",
                            example: "-1001234567890")),
        // 8192 characters stay within the 32 KiB the template may take, whatever the characters.
        ("template", .string(pattern: nil, maxLength: 8192, description: "custom-webhook: a Mustache template of the JSON body")),
        ("min_severity", .stringEnum(AlertSeverity.allCases.map(\.rawValue))),
        ("domain_ids", .array(.integer(minimum: 1, maximum: Int(Int32.max)), maxItems: 1000)),
        ("app_ids", .array(.integer(minimum: 1, maximum: Int(Int32.max)), maxItems: 1000)),
    ], required: ["kind"])

    static func json(_ channel: ChannelRecord, _ c: RequestContext, store: any AlertStore) throws -> ChannelJSON {
        let latest = try store.deliveries(channelID: channel.id, limit: 1).first
        return ChannelJSON(id: channel.id, kind: channel.kind.rawValue, name: channel.name,
                           target: ChannelTarget.shown(channel, to: try c.signedIn),
                           enabled: channel.enabled, min_severity: channel.minSeverity.rawValue, domain_ids: channel.domainIDs,
                           disabled_reason: channel.disabledReason,
                           last_delivery: latest.map { LastDelivery(state: $0.state.rawValue, error: $0.lastError, at: $0.createdAt) })
    }

    static func list(_ c: RequestContext, store: any AlertStore & SettingsStore) throws -> WebResponse {
        struct Page: Encodable { let channels: [ChannelJSON] }
        return APIResponses.json(Page(channels: try store.channels().map { try json($0, c, store: store) }))
    }

    static func create(_ c: RequestContext, store: any AlertStore & SettingsStore & DomainStore & AppStore) throws -> WebResponse {
        let body = try APIRequest.body(c, inputSchema, maxBytes: 64 << 10)
        func text(_ name: String) -> String? { body[name]?.string }
        func ids(_ name: String) -> [Int64] { body[name]?.array?.compactMap { $0.integer.map(Int64.init) } ?? [] }
        // The schema has checked both against their enums.
        guard let kind = text("kind").flatMap(ChannelKind.init(rawValue:)) else { throw WebError.badRequest("kind is required.", field: "kind") }
        let severity = text("min_severity").flatMap(AlertSeverity.init(rawValue:)) ?? .info
        let spec = ChannelSpec(kind: kind, name: text("name") ?? "", target: text("target") ?? "", credential: text("credential"),
                               recipient: text("chat_id"), template: text("template"), minSeverity: severity,
                               domainIDs: ids("domain_ids"), appIDs: ids("app_ids"))
        for id in spec.domainIDs where try store.domain(id: id) == nil {
            throw WebError.unprocessable("domain_ids: no domain has the id \(id).", field: "domain_ids")
        }
        for id in spec.appIDs where try store.app(id: id) == nil {
            throw WebError.unprocessable("app_ids: no app has the id \(id).", field: "app_ids")
        }
        let created: ChannelSetup.Created
        do {
            created = try ChannelSetup.add(spec, in: store)
        } catch let invalid as ChannelSetup.InvalidInput {
            throw WebError.unprocessable(invalid.message, field: invalid.field == "recipient" ? "chat_id" : invalid.field)
        }
        struct Created: Encodable {
            let channel: ChannelJSON
            /// The webhook's whsec_ signing secret, returned this once; null for other kinds.
            let signing_secret: String?
            /// Saved, but nothing will arrive: a URL on this machine or a private network while private receivers are refused.
            @PublicJSON.NullWhenAbsent var warning: String?
        }
        let warning = try ChannelHandlers.privateReceiverWarning(created.channel, store: store)
        return APIResponses.json(Created(channel: try json(created.channel, c, store: store), signing_secret: created.secret, warning: warning),
                                 status: 201)
            .with(header: "Location", "/api/v1/channels/\(created.channel.id)")
    }

    static func read(_ c: RequestContext, store: any AlertStore & SettingsStore) throws -> WebResponse {
        guard let id = c.parameters.id("id"), let channel = try store.channel(id: id) else { throw WebError.notFound("No channel with this id.") }
        return APIResponses.json(try json(channel, c, store: store))
    }

    static func delete(_ c: RequestContext, store: any AlertStore & SettingsStore) throws -> WebResponse {
        guard let id = c.parameters.id("id"), try store.deleteChannel(id: id) else { throw WebError.notFound("No channel with this id.") }
        return WebResponse(status: 204)
    }

    /// Sends a test notification now and answers with what the provider said.
    static func test(_ c: RequestContext, store: any AlertStore & SettingsStore & Sendable) throws -> WebResponse {
        guard let id = c.parameters.id("id"), try store.channel(id: id) != nil else { throw WebError.notFound("No channel with this id.") }
        let outcome = try ChannelSetup.testNow(channelID: id, in: store, environment: ProcessInfo.processInfo.environment,
                                               listening: c.configuration.listeningAddress)
        struct Outcome: Encodable {
            let delivery_id: Int64
            let delivered: Bool
            /// pending (a running notifier took it first, or it will be retried), sent or failed.
            let state: String
            let response_code: Int?
            let response: String?
            let error: String?
        }
        let attempt = outcome.attempt
        return APIResponses.json(Outcome(delivery_id: outcome.deliveryID, delivered: outcome.delivered, state: outcome.state.rawValue,
                                         response_code: attempt?.responseCode, response: attempt?.response, error: attempt?.error))
    }
}
