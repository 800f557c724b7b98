import Foundation
import Notify
import Store

/// Notification channels, on the settings page.
enum ChannelHandlers {
    static func channelRows(_ c: RequestContext) throws -> [SettingsModel.ChannelRow] {
        let viewer = try c.signedIn
        return try c.database.channels().map {
            .init(id: $0.id, kind: $0.kind.rawValue, target: ChannelTarget.shown(kind: $0.kind.rawValue, target: $0.target, to: viewer),
                  enabled: $0.enabled, lastDelivery: try lastDelivery(channelID: $0.id, c))
        }
    }

    /// The channel's latest delivery in words, with the receiver's own reason when it failed.
    static func lastDelivery(channelID: Int64, _ c: RequestContext) throws -> String {
        guard let latest = try c.database.deliveries(channelID: channelID, limit: 1).first else { return "none yet" }
        switch latest.state {
        case .sent: return "delivered"
        case .failed: return "gave up: " + (latest.lastError ?? "no reason recorded")
        case .pending: return latest.lastError.map { "retrying: " + $0 } ?? "queued"
        }
    }

    static func create(_ c: RequestContext) throws -> WebResponse {
        let f = { (name: String) in c.form[name] ?? "" }
        // What the form gives back on an error; never the credential.
        let kept = ["target": f("target"), "kind": f("kind"), "recipient": f("recipient"), "template": f("template")]
        // Refuse a kind the form does not offer rather than take it for email.
        guard let kind = ChannelKind(rawValue: f("kind")) else {
            return try SettingsHandlers.page(c, errors: ["kind": "Choose the channel's kind."], values: kept, status: 422)
        }
        let spec = ChannelSpec(kind: kind, target: f("target"), credential: f("credential"), recipient: f("recipient"), template: f("template"))
        do {
            let created = try ChannelSetup.add(spec, in: c.database)
            if let secret = created.secret {
                // The signing secret is shown once, like an API token.
                return try SettingsHandlers.page(c, errors: [:], values: [:], status: 200,
                                                 flash: Flash(.success, "Webhook added. Its signing secret (shown once): " + secret))
            }
            return c.redirect("/settings", flash: Flash(.success, "Channel added."))
        } catch let e as ChannelSetup.InvalidInput {
            return try SettingsHandlers.page(c, errors: [e.field: e.message], values: kept, status: 422)
        }
    }

    static func delete(_ c: RequestContext) throws -> WebResponse {
        guard let id = c.parameters.id("id") else { throw WebError.notFound("No such channel.") }
        _ = try c.database.deleteChannel(id: id)
        return c.redirect("/settings", flash: Flash(.success, "Channel removed."))
    }

    static func sendTest(_ c: RequestContext) throws -> WebResponse {
        guard let id = c.parameters.id("id"), try c.database.channel(id: id) != nil else { throw WebError.notFound("No such channel.") }
        _ = try ChannelSetup.sendTest(channelID: id, in: c.database)
        return c.redirect("/alerts", flash: Flash(.info, "Test notification queued; it shows below once sent."))
    }
}
