import Foundation
import Notify
import Store
import Vocabulary

/// Notification channels, in Settings → Channels: add (a form per kind), edit, test and remove.
enum ChannelHandlers {
    static func channelRows(_ c: RequestContext, store: any SettingsPageStore, tested: (id: Int64, outcome: ChannelSetup.TestOutcome)? = nil) throws -> [SettingsModel.ChannelRow] {
        let viewer = try c.signedIn
        let apps = try store.apps()
        return try store.channels().map { channel in
            var row = SettingsModel.ChannelRow(id: channel.id, kind: channel.kind.rawValue, target: ChannelTarget.shown(channel, to: viewer),
                                               enabled: channel.enabled, lastDelivery: try lastDelivery(channelID: channel.id, store: store))
            row.name = channel.name
            row.routing = try routing(channel, apps: apps, store: store)
            if let tested, tested.id == channel.id { row.test = .init(delivered: tested.outcome.delivered, summary: tested.outcome.summary) }
            return row
        }
    }

    /// "warning and up · shop.example · app Shop", or "everything".
    static func routing(_ channel: ChannelRecord, apps: [AppRecord], store: any DomainStore) throws -> String {
        var parts: [String] = []
        switch channel.minSeverity {
        case .info: parts.append("everything")
        case .warning: parts.append("warning and critical")
        case .critical: parts.append("critical only")
        }
        parts += try channel.domainIDs.compactMap { try store.domain(id: $0).map(\.displayName) }
        parts += channel.appIDs.compactMap { id in apps.first { $0.id == id }.map { "app \($0.name)" } }
        return parts.joined(separator: " · ")
    }

    /// The channel's latest delivery in words, with the receiver's own reason when it failed.
    static func lastDelivery(channelID: Int64, store: any AlertStore) throws -> String {
        guard let latest = try store.deliveries(channelID: channelID, limit: 1).first else { return "none yet" }
        switch latest.state {
        case .sent: return "delivered"
        case .failed: return "gave up: " + (latest.lastError ?? "no reason recorded")
        case .pending: return latest.lastError.map { "retrying: " + $0 } ?? "queued"
        }
    }

    /// The apps a channel can be routed to, for the forms.
    static func appChoices(store: any AppStore) throws -> [ChannelForm.AppChoice] {
        try store.apps().map { .init(id: $0.id, name: $0.name) }
    }

    /// What the form gives back on an error: everything typed but the credential.
    static func kept(_ c: RequestContext) -> [String: String] {
        var kept: [String: String] = [:]
        for field in ["name", "kind", "target", "recipient", "template", "min_severity", "domains", "enabled"] { kept[field] = c.form[field] ?? "" }
        kept["app"] = c.form.all("app").joined(separator: ",")
        return kept
    }

    /// The form's fields as a spec; the routing's hosts must be registered domains. A refusal names its field.
    static func spec(_ c: RequestContext, store: any DomainStore, kind: ChannelKind) throws(ChannelSetup.InvalidInput) -> ChannelSpec {
        let f = { (name: String) in c.form[name] ?? "" }
        guard let severity = AlertSeverity(rawValue: f("min_severity").isEmpty ? "info" : f("min_severity")) else {
            throw ChannelSetup.InvalidInput(field: "min_severity", message: "Choose critical, warning or info.")
        }
        var domainIDs: [Int64] = []
        let hosts = f("domains").split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "," || $0 == " " }).map(String.init)
        for host in hosts {
            let name: HostName
            do { name = try HostName(host) } catch {
                throw ChannelSetup.InvalidInput(field: "domains", message: "\(host): \(error.message)")
            }
            let id: Int64?
            do { id = try store.domainID(host: name.ascii, wildcard: name.isWildcard) } catch {
                throw ChannelSetup.InvalidInput(field: "domains", message: "The domains could not be looked up; try again.")
            }
            guard let id else { throw ChannelSetup.InvalidInput(field: "domains", message: "\(host) is not a registered domain.") }
            if !domainIDs.contains(id) { domainIDs.append(id) }
        }
        var appIDs: [Int64] = []
        for text in c.form.all("app") {
            guard let id = Int64(text) else { throw ChannelSetup.InvalidInput(field: "app", message: "Choose apps from the list.") }
            if !appIDs.contains(id) { appIDs.append(id) }
        }
        return ChannelSpec(kind: kind, name: f("name"), target: f("target"), credential: f("credential"), recipient: f("recipient"),
                           template: f("template"), minSeverity: severity, enabled: c.form["enabled"] == "1", domainIDs: domainIDs,
                           appIDs: appIDs)
    }

    /// The kinds to choose from, or, given `?kind=`, the form of that kind.
    static func newForm(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        guard let kind = ChannelKind(rawValue: c.query["kind"] ?? "") else {
            return .html(ChannelNewPage.chooser(viewer: try c.signedIn))
        }
        let form = ChannelForm(kind: kind, apps: try appChoices(store: store))
        return .html(ChannelNewPage.render(form, viewer: try c.signedIn))
    }

    static func create(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        // Refuse a kind the form does not offer rather than take it for email.
        guard let kind = ChannelKind(rawValue: c.form["kind"] ?? "") else {
            return .html(ChannelNewPage.chooser(viewer: try c.signedIn, error: "Choose the channel's kind."), status: 422)
        }
        // The same kind's form again, with what was typed but the credential.
        let refused = { (errors: [String: String]) throws -> WebResponse in
            let form = ChannelForm(kind: kind, values: kept(c), errors: errors, apps: try appChoices(store: store),
                                   checkedApps: Set(c.form.all("app").compactMap { Int64($0) }))
            return .html(ChannelNewPage.render(form, viewer: try c.signedIn), status: 422)
        }
        do {
            var spec = try spec(c, store: store, kind: kind)
            spec.enabled = true
            let created = try ChannelSetup.add(spec, in: store)
            let warning = try privateReceiverWarning(created.channel, store: store).map { " Warning: " + $0 } ?? ""
            if let secret = created.secret {
                // The signing secret is shown once, like an API token.
                return try SettingsHandlers.page(c, store: store, section: .channels, errors: [:], values: [:], status: 200,
                                                 flash: Flash(.success, "Webhook added. Its signing secret (shown once): " + secret + warning))
            }
            return c.redirect("/settings/channels#channel-\(created.channel.id)",
                              flash: Flash(warning.isEmpty ? .success : .info, "Channel added." + warning))
        } catch let e as ChannelSetup.InvalidInput {
            return try refused([e.field: e.message])
        } catch is DatabaseError where !c.form.all("app").isEmpty {
            // An app deleted since the form was shown (the route's foreign key).
            return try refused(["app": "An app chosen no longer exists."])
        }
    }

    static func editForm(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        let channel = try channel(c, store: store)
        var values = ["name": channel.name, "target": channel.targetIsHidden ? "" : channel.target,
                      "recipient": channel.recipient ?? "", "template": channel.bodyTemplate ?? "",
                      "min_severity": channel.minSeverity.rawValue, "enabled": channel.enabled ? "1" : ""]
        values["domains"] = try channel.domainIDs.compactMap { try store.domain(id: $0).map(\.displayName) }.joined(separator: "\n")
        let form = ChannelForm(kind: channel.kind, values: values, apps: try appChoices(store: store), checkedApps: Set(channel.appIDs),
                               editing: channel)
        return .html(ChannelEditPage.render(form, channel: channel, viewer: try c.signedIn))
    }

    static func update(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        let channel = try channel(c, store: store)
        let refused = { (errors: [String: String]) throws -> WebResponse in
            let form = ChannelForm(kind: channel.kind, values: kept(c), errors: errors, apps: try appChoices(store: store),
                                   checkedApps: Set(c.form.all("app").compactMap { Int64($0) }), editing: channel)
            return .html(ChannelEditPage.render(form, channel: channel, viewer: try c.signedIn), status: 422)
        }
        let saved: ChannelRecord
        do {
            guard let edited = try ChannelSetup.edit(id: channel.id, try spec(c, store: store, kind: channel.kind), in: store) else {
                throw WebError.notFound("No such channel.")
            }
            saved = edited
        } catch let e as ChannelSetup.InvalidInput {
            return try refused([e.field: e.message])
        } catch is DatabaseError where !c.form.all("app").isEmpty {
            return try refused(["app": "An app chosen no longer exists."])
        }
        let warning = try privateReceiverWarning(saved, store: store)
        return c.redirect("/settings/channels#channel-\(channel.id)",
                          flash: warning.map { Flash(.info, "Channel saved. Warning: " + $0) } ?? Flash(.success, "Channel saved."))
    }

    /// Said at entry when the channel's URL is on this machine or a private network and private
    /// receivers are refused (`ChannelSetup.privateReceiverWarning`): saved, but nothing will arrive.
    static func privateReceiverWarning(_ channel: ChannelRecord, store: some SettingsStore) throws -> String? {
        let allowed = try NotificationSettings.allowsPrivateReceivers(environment: ProcessInfo.processInfo.environment, database: store)
        return ChannelSetup.privateReceiverWarning(kind: channel.kind, target: channel.target, allowsPrivate: allowed)
    }

    static func delete(_ c: RequestContext, store: any SettingsStore) throws -> WebResponse {
        guard let id = c.parameters.id("id") else { throw WebError.notFound("No such channel.") }
        _ = try store.deleteChannel(id: id)
        return c.redirect("/settings/channels", flash: Flash(.success, "Channel removed."))
    }

    /// Sends a test notification now and answers with the settings page, the provider's answer shown
    /// in the channel's row: no JavaScript, no second request.
    static func sendTest(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        let channel = try channel(c, store: store)
        let outcome = try ChannelSetup.testNow(channelID: channel.id, in: store, environment: ProcessInfo.processInfo.environment,
                                               listening: c.configuration.listeningAddress)
        return try SettingsHandlers.page(c, store: store, section: .channels, errors: [:], values: [:], status: 200, tested: (channel.id, outcome))
    }

    private static func channel(_ c: RequestContext, store: any SettingsStore) throws -> ChannelRecord {
        guard let id = c.parameters.id("id"), let channel = try store.channel(id: id) else { throw WebError.notFound("No such channel.") }
        return channel
    }
}
