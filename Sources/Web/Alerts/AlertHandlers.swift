import Foundation
import Store

/// The alerts page: open and resolved incidents and each channel's delivery log. Gets the two
/// aggregates it reads, alerts with their deliveries and the channels (settings).
struct AlertHandlers: Sendable {
    let store: any AlertStore & SettingsStore & Sendable

    func alerts(_ c: RequestContext) throws -> WebResponse {
        let viewer = try c.signedIn
        var m = AlertsModel(now: c.nowEpoch)
        func incident(_ a: AlertListItem) -> AlertsModel.Incident {
            var i = AlertsModel.Incident(id: a.id, domainID: a.domainID, host: a.displayName, rule: a.rule, message: a.summary,
                                         opened: DomainHandlers.epoch(a.openedAt), resolved: a.resolvedAt.map(DomainHandlers.epoch))
            i.apps = a.apps
            return i
        }
        m.open = try store.alertList(open: true, limit: 200).map(incident)
        m.resolved = try store.alertList(open: false, limit: 50).map(incident)
        m.channels = try store.channels().map { ch in
            let deliveries = try store.deliveries(channelID: ch.id, limit: 20).map { d in
                AlertsModel.Delivery(time: DomainHandlers.epoch(d.createdAt),
                                     event: AlertsModel.Delivery.lines(title: d.event.title, differences: d.event.diffSummary), attempts: d.attempts,
                                     delivered: d.state == .sent, lastError: d.state == .failed ? (d.lastError ?? "gave up") : d.lastError)
            }
            let target = ChannelTarget.shown(ch, to: viewer)
            let name = ch.name.isEmpty ? "\(ch.kind.rawValue): \(target)" : ch.name
            return .init(channelID: ch.id, name: name, deliveries: deliveries)
        }
        let flash = c.flash
        return c.showing(flash, .html(AlertsPage.render(m, viewer: viewer, flash: flash)))
    }
}
