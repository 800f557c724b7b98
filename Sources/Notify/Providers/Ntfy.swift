import Foundation
import Store
import Vocabulary

/// ntfy (docs.ntfy.sh/publish, "Publish as JSON"): the JSON body goes to the server's root with the
/// topic inside it; the channel's URL is the topic's URL, as people copy it from the ntfy app.
enum Ntfy {
    static let answer = ProviderAnswer(provider: "ntfy", messagePaths: [["error"]])

    struct Publish: Encodable {
        var topic: String
        var title: String
        var message: String
        /// 1 (min) … 5 (max/urgent).
        var priority: Int
        var tags: [String]
        var click: String
    }

    static func message(_ input: ProviderInput) -> ProviderMessage {
        let event = input.event
        let (root, topic) = split(input.channel.target)
        var lines: [String] = []
        if let detail = event.detail { lines.append(detail) }
        lines += ProviderJSON.findingLines(event) + event.diffSummary.prefix(10)
        if lines.isEmpty { lines.append(event.title) }
        let publish = Publish(topic: topic, title: ProviderJSON.cut(NotificationText.headline(event), 250),
                              message: ProviderJSON.cut(lines.joined(separator: "\n"), 3900), priority: priority(event),
                              tags: [tag(event), "aasa-monitor"], click: input.links.domainPage(event))
        let auth = input.channel.secret.map { [ProviderMessage.Header("authorization", "Bearer \($0)")] } ?? []
        return ProviderMessage(url: root, headers: auth, body: ProviderJSON.encode(publish))
    }

    /// "https://ntfy.sh/alerts" → ("https://ntfy.sh/", "alerts"); a server under a path keeps it.
    static func split(_ topicURL: String) -> (root: String, topic: String) {
        var url = topicURL
        if let query = url.firstIndex(where: { $0 == "?" || $0 == "#" }) { url = String(url[..<query]) }
        while url.hasSuffix("/") { url.removeLast() }
        guard let slash = url.lastIndex(of: "/"), url[..<slash].hasSuffix("/") == false else { return (url + "/", "") }
        return (String(url[...slash]), String(url[url.index(after: slash)...]))
    }

    static func priority(_ event: NotificationEvent) -> Int {
        switch (event.kind, event.severity) {
        case (.alertResolved, _), (.test, _), (.versionPublished, _), (_, .info): 3
        case (_, .critical): 5
        case (_, .warning): 4
        }
    }

    /// Tags that match an emoji short code show as that emoji in the ntfy apps.
    static func tag(_ event: NotificationEvent) -> String {
        switch (event.kind, event.severity) {
        case (.alertResolved, _): "white_check_mark"
        case (.test, _), (.versionPublished, _), (_, .info): "information_source"
        case (_, .critical): "rotating_light"
        case (_, .warning): "warning"
        }
    }
}
