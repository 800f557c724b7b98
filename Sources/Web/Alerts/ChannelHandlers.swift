import Foundation
import Notify
import Store

/// Notification channels, on the settings page.
enum ChannelHandlers {
    static func channelRows(_ c: RequestContext) throws -> [SettingsModel.ChannelRow] {
        let viewer = try c.signedIn
        return try c.database.channels().map {
            .init(id: $0.id, kind: $0.kind.rawValue, target: ChannelTarget.shown(kind: $0.kind.rawValue, target: $0.target, to: viewer),
                  enabled: $0.enabled)
        }
    }

    static func create(_ c: RequestContext) throws -> WebResponse {
        let target = c.form["target"] ?? ""
        // The form offers email and webhook; anything else is refused rather than taken for email.
        guard let kind = ChannelKind(rawValue: c.form["kind"] ?? "") else {
            return try SettingsHandlers.page(c, errors: ["target": "Choose the channel's kind: email or webhook."],
                                             values: ["target": target], status: 422)
        }
        do {
            let created = try ChannelSetup.add(kind: kind, target: target, in: c.database)
            if let secret = created.secret {
                // The signing secret is shown once, like an API token.
                return try SettingsHandlers.page(c, errors: [:], values: [:], status: 200,
                                                 flash: Flash(.success, "Webhook added. Its signing secret (shown once): " + secret))
            }
            return c.redirect("/settings", flash: Flash(.success, "Channel added."))
        } catch let e as ChannelSetup.InvalidInput {
            return try SettingsHandlers.page(c, errors: ["target": e.message], values: ["target": target, "kind": kind.rawValue], status: 422)
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
