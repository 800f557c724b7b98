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

    struct Input: Decodable {
        let kind: String
        let name: String?
        let target: String?
        let credential: String?
        let chat_id: String?
        let template: String?
        let min_severity: String?
        let domain_ids: [Int64]?
    }

    static func json(_ channel: ChannelRecord, _ c: RequestContext) throws -> ChannelJSON {
        let latest = try c.database.deliveries(channelID: channel.id, limit: 1).first
        return ChannelJSON(id: channel.id, kind: channel.kind.rawValue, name: channel.name,
                           target: ChannelTarget.shown(channel, to: try c.signedIn),
                           enabled: channel.enabled, min_severity: channel.minSeverity.rawValue, domain_ids: channel.domainIDs,
                           disabled_reason: channel.disabledReason,
                           last_delivery: latest.map { LastDelivery(state: $0.state.rawValue, error: $0.lastError, at: $0.createdAt) })
    }

    static func list(_ c: RequestContext) throws -> WebResponse {
        struct Page: Encodable { let channels: [ChannelJSON] }
        return APIResponses.json(Page(channels: try c.database.channels().map { try json($0, c) }))
    }

    static func create(_ c: RequestContext) throws -> WebResponse {
        let input: Input
        do {
            input = try JSONDecoder().decode(Input.self, from: Data(c.request.body))
        } catch {
            throw WebError.badRequest("The body must be a JSON object such as {\"kind\": \"pagerduty\", \"credential\": \"ROUTING_KEY\"}.")
        }
        guard let kind = ChannelKind(rawValue: input.kind) else {
            throw WebError.badRequest("kind must be one of " + ChannelKind.allCases.map(\.rawValue).joined(separator: ", "), field: "kind")
        }
        var severity = AlertSeverity.info
        if let given = input.min_severity {
            guard let parsed = AlertSeverity(rawValue: given) else {
                throw WebError.badRequest("min_severity must be critical, warning or info", field: "min_severity")
            }
            severity = parsed
        }
        let spec = ChannelSpec(kind: kind, name: input.name ?? "", target: input.target ?? "", credential: input.credential,
                               recipient: input.chat_id, template: input.template, minSeverity: severity, domainIDs: input.domain_ids ?? [])
        let created: ChannelSetup.Created
        do {
            created = try ChannelSetup.add(spec, in: c.database)
        } catch let invalid as ChannelSetup.InvalidInput {
            throw WebError.badRequest(invalid.message, field: invalid.field == "recipient" ? "chat_id" : invalid.field)
        } catch let failure as DatabaseError {
            // A domain id that does not exist (the filter's foreign key).
            throw WebError.badRequest("domain_ids must name registered domains (\(failure))", field: "domain_ids")
        }
        struct Created: Encodable {
            let channel: ChannelJSON
            /// The webhook's whsec_ signing secret, returned this once; null for other kinds.
            let signing_secret: String?
        }
        return APIResponses.json(Created(channel: try json(created.channel, c), signing_secret: created.secret), status: 201)
            .with(header: "Location", "/api/v1/channels/\(created.channel.id)")
    }

    static func read(_ c: RequestContext) throws -> WebResponse {
        guard let id = c.parameters.id("id"), let channel = try c.database.channel(id: id) else { throw WebError.notFound("No channel with this id.") }
        return APIResponses.json(try json(channel, c))
    }

    static func delete(_ c: RequestContext) throws -> WebResponse {
        guard let id = c.parameters.id("id"), try c.database.deleteChannel(id: id) else { throw WebError.notFound("No channel with this id.") }
        return WebResponse(status: 204)
    }

    /// Sends a test notification now and answers with what the provider said.
    static func test(_ c: RequestContext) throws -> WebResponse {
        guard let id = c.parameters.id("id"), try c.database.channel(id: id) != nil else { throw WebError.notFound("No channel with this id.") }
        let outcome = try ChannelSetup.testNow(channelID: id, in: c.database, environment: ProcessInfo.processInfo.environment)
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
