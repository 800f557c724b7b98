import Foundation
import Store
import Vocabulary

/// One HTTP POST a provider wants for one event. Built by a pure payload builder (`PagerDuty`,
/// `Opsgenie`, …) and sent by `HTTPDelivery`, so each provider's fields are tested without a network.
public struct ProviderMessage: Sendable, Equatable {
    public var url: String
    /// Name and value; names lower-case.
    public var headers: [Header]
    public var body: [UInt8]

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(url: String, headers: [Header] = [], body: [UInt8]) {
        self.url = url
        self.headers = [Header("content-type", "application/json"), Header("user-agent", "aasa-monitor/1")] + headers
        self.body = body
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// What a payload builder is given: the event, the channel it goes through, the links back to the
/// dashboard, and the outbox row's stable id (the same on every retry of this delivery).
public struct ProviderInput: Sendable {
    public var event: NotificationEvent
    public var channel: ChannelRecord
    public var links: NotificationLinks
    public var deliveryKey: String
    public var now: Date = Date()

    /// The channel's URL without trailing slashes, for kinds whose target is an API's base.
    var base: String {
        var base = channel.target
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// A key that is the same for an alert's opening, escalation and resolution, so a provider with
    /// incidents (PagerDuty's dedup_key, Opsgenie's alias, Google Chat's thread) ties them together.
    /// Events of no alert (a test, a new version) get one of their own.
    var incidentKey: String {
        if let alert = event.alertID { return "aasa-monitor-alert-\(alert)" }
        return "aasa-monitor-\(deliveryKey)"
    }
}

/// Payload builders share these: JSON encoding, lengths cut on character boundaries.
enum ProviderJSON {
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Plain structs of strings, numbers and arrays cannot fail to encode; an empty object is a safe floor.
        return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }

    /// `text` cut to `limit` characters, ending in "…" when cut (providers refuse longer fields).
    static func cut(_ text: String, _ limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// The first string found at one of `paths` in a JSON object (the provider's error message).
    static func string(in body: [UInt8], at paths: [[String]]) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) else { return nil }
        for path in paths {
            var node: Any? = object
            for key in path { node = (node as? [String: Any])?[key] }
            if let text = node as? String, !text.isEmpty { return text }
            if let list = node as? [Any], !list.isEmpty { return list.map { "\($0)" }.joined(separator: "; ") }
            if let number = node as? NSNumber, path.last?.contains("retry") == true { return number.stringValue }
        }
        return nil
    }

    /// Findings as lines, worst first as the event lists them, at most `limit`.
    static func findingLines(_ event: NotificationEvent, limit: Int = 10) -> [String] {
        var lines = event.findings.prefix(limit).map { "[\($0.severity.rawValue)] \($0.code): \($0.message)" }
        if event.findings.count > limit { lines.append("… and \(event.findings.count - limit) more") }
        return lines
    }
}
