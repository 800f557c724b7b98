import Vocabulary
import Foundation
import Store

/// Adding channels and sending test notifications, shared by the CLI, the settings page and the
/// API. Validates what a person typed before it reaches the database.
public enum ChannelSetup {
    public struct InvalidInput: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// A new channel and, for webhooks, the signing secret to show once.
    public struct Created: Sendable {
        public var channel: ChannelRecord
        public var secret: String?
    }

    /// Checks the address or URL, generates a signing secret for webhooks, and stores the channel.
    public static func add(kind: ChannelKind, target: String, name: String = "", minSeverity: AlertSeverity = .info,
                           domainIDs: [Int64] = [], in database: some SettingsStore) throws -> Created {
        let trimmed = try checkedTarget(kind: kind, target)
        let secret: WebhookSecret? = kind == .email ? nil : WebhookSecret.generate()
        let channel = try database.createChannel(NewChannel(kind: kind, name: name, target: trimmed, secret: secret?.text,
                                                            minSeverity: minSeverity, domainIDs: domainIDs))
        return Created(channel: channel, secret: secret?.text)
    }

    /// The target as stored (trimmed), once it is right for the kind: an email address, or a URL
    /// the webhook policy accepts. Shared by `add` and config files (`apply`).
    public static func checkedTarget(kind: ChannelKind, _ target: String) throws -> String {
        let trimmed = target.trimmingCharacters(in: .whitespacesAndNewlines)
        switch kind {
        case .email:
            try validateEmail(trimmed)
        case .webhook, .slack:
            do {
                _ = try WebhookAddressPolicy.parse(trimmed)
            } catch {
                throw InvalidInput(message: error.description)
            }
        }
        return trimmed
    }

    /// One address, no display name, no spaces or line breaks (it goes into SMTP's RCPT TO).
    public static func validateEmail(_ address: String) throws {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              address.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0 != "<" && $0 != ">" && $0 != "," && $0 != "\u{7F}" })
        else { throw InvalidInput(message: "\"\(address)\" is not an email address like ops@example.com") }
    }

    /// Queues a test notification for the channel, whatever its filters. Returns the delivery id.
    public static func sendTest(channelID: Int64, in database: some SettingsStore & AlertStore, now: Date = Date()) throws -> Int64 {
        guard let channel = try database.channel(id: channelID) else {
            throw InvalidInput(message: "there is no channel \(channelID)")
        }
        let event = NotificationEvent(kind: .test, occurredAt: now, domainHost: "example.com", severity: .info,
                                      title: "channel \(channel.id) (\(channel.kind.rawValue)) works",
                                      detail: "You asked aasa-monitor to send a test notification to \(channel.target). "
                                          + "Real alerts through this channel look like this one.")
        return try database.enqueueTestNotification(channelID: channelID, event: event)
    }
}
