import Vocabulary
import Foundation
import Outbound
import Store

/// A channel as a person, an API client or a config file describes it, before it is checked.
/// Which fields a kind needs is `kind.inputs`.
public struct ChannelSpec: Sendable, Equatable {
    public var kind: ChannelKind
    public var name: String
    /// The email address or URL; empty for PagerDuty, Opsgenie and Telegram means the provider's API.
    public var target: String
    /// The routing key, API key, bot token or access token (`kind.inputs.credential`).
    public var credential: String?
    /// Telegram's chat id.
    public var recipient: String?
    /// The custom webhook's Mustache template of JSON.
    public var template: String?
    public var minSeverity: AlertSeverity
    public var enabled: Bool
    public var domainIDs: [Int64]
    public var appIDs: [Int64]

    public init(kind: ChannelKind, name: String = "", target: String = "", credential: String? = nil, recipient: String? = nil,
                template: String? = nil, minSeverity: AlertSeverity = .info, enabled: Bool = true, domainIDs: [Int64] = [],
                appIDs: [Int64] = []) {
        self.kind = kind
        self.name = name
        self.target = target
        self.credential = credential
        self.recipient = recipient
        self.template = template
        self.minSeverity = minSeverity
        self.enabled = enabled
        self.domainIDs = domainIDs
        self.appIDs = appIDs
    }
}

/// Adding channels and sending test notifications, shared by the CLI, the settings page, the API and
/// config files. Validates what a person typed before it reaches the database.
public enum ChannelSetup {
    /// A refusal, with the field it concerns (`target`, `credential`, `recipient`, `template`) so a form
    /// can show it beside the field and the API can name it.
    public struct InvalidInput: Error, CustomStringConvertible {
        public var field: String
        public var message: String
        public var description: String { message }

        public init(field: String = "target", message: String) {
            self.field = field
            self.message = message
        }
    }

    /// A new channel and, for signed webhooks, the signing secret to show once.
    public struct Created: Sendable {
        public var channel: ChannelRecord
        public var secret: String?
    }

    /// Checks the address or URL, generates a signing secret for webhooks, and stores the channel.
    public static func add(kind: ChannelKind, target: String, name: String = "", minSeverity: AlertSeverity = .info,
                           domainIDs: [Int64] = [], in database: some SettingsStore) throws -> Created {
        try add(ChannelSpec(kind: kind, name: name, target: target, minSeverity: minSeverity, domainIDs: domainIDs), in: database)
    }

    /// Checks every field of `spec` (`validated`) and stores the channel. A signed webhook given no
    /// signing secret gets a new one, returned in `Created.secret` to show once.
    public static func add(_ spec: ChannelSpec, in database: some SettingsStore) throws -> Created {
        var new = try validated(spec)
        try refuseTakenName(new.settings.name, editing: nil, in: database)
        var generated: String?
        if new.secret == nil && spec.kind.inputs.generatesSigningSecret {
            generated = WebhookSecret.generate().text
            new.secret = generated
        }
        do {
            let channel = try database.createChannel(new)
            return Created(channel: channel, secret: generated)
        } catch let error as DatabaseError where error.isUniqueViolation {
            // Another request took the name between the check above and the insert.
            throw nameTaken(new.settings.name)
        }
    }

    /// A channel's name is its identity (config files and `export --yaml` find channels by it, people
    /// tell them apart by it), so two channels may not share one; only the empty name repeats.
    /// `editing` is the channel being saved, which may keep its own name.
    static func refuseTakenName(_ name: String, editing id: Int64?, in database: some SettingsStore) throws {
        if let other = try database.channel(named: name), other.id != id { throw nameTaken(name) }
    }

    /// Said when a channel is saved with a URL on this machine or a private network while private
    /// receivers are refused: it is kept (an admin may allow them next), but nothing reaches it until
    /// then, and "Send test" will say so. Judged on the URL alone (an IP literal, or a localhost
    /// name), so saving needs no DNS; other names are resolved and judged at each send. Nil otherwise.
    public static func privateReceiverWarning(kind: ChannelKind, target: String, allowsPrivate: Bool) -> String? {
        guard !allowsPrivate, kind != .email, let url = try? WebhookAddressPolicy.parse(target) else { return nil }
        let place: String
        if let address = IPAddress(url.host), let range = OutboundPolicy.specialPurposeRange(of: address) {
            place = "is in \(range)"
        } else if url.host == "localhost" || url.host.hasSuffix(".localhost") {
            place = "is this machine"
        } else {
            return nil
        }
        return "\(url.host) \(place), and receivers on this machine or a private network are refused: nothing is delivered to "
            + "this channel until an admin allows private receivers (Settings → Channels → Private receivers)."
    }

    static func nameTaken(_ name: String) -> InvalidInput {
        InvalidInput(field: "name", message: "another channel is already named \"\(name)\": give this one a different name")
    }

    /// Saves an edited channel, checked as a new one is, except that what is left empty is kept: a
    /// credential (never shown, so never sent back by a form), and a target that is not shown (a
    /// Slack URL, one read from the environment: `targetIsHidden`). The kind cannot change. Nil: no
    /// such channel.
    public static func edit(id: Int64, _ spec: ChannelSpec, in database: some SettingsStore) throws -> ChannelRecord? {
        guard let existing = try database.channel(id: id) else { return nil }
        guard existing.kind == spec.kind else {
            throw InvalidInput(field: "kind", message: "a channel's kind cannot change: add a \(spec.kind.rawValue) channel instead")
        }
        var spec = spec
        if existing.targetIsHidden && spec.target.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            spec.target = existing.target
        }
        let checked = try validated(spec, keepsStoredSecret: existing.secret != nil)
        try refuseTakenName(checked.settings.name, editing: id, in: database)
        do {
            return try database.updateChannel(id: id, checked.settings, secret: checked.secret)
        } catch let error as DatabaseError where error.isUniqueViolation {
            throw nameTaken(checked.settings.name)
        }
    }

    /// The channel to store for `spec`, or the first field that is wrong. No I/O (the URL's host is
    /// resolved and judged when a message is sent), so a config file can check all its channels
    /// before it changes anything. The secret is the credential given, nil when none was: `add`
    /// makes a signing secret then, and an edit (`keepsStoredSecret`) keeps the stored one, so a
    /// required credential may be left out.
    public static func validated(_ spec: ChannelSpec, keepsStoredSecret: Bool = false) throws(InvalidInput) -> NewChannel {
        let inputs = spec.kind.inputs
        let target = try checkedTarget(kind: spec.kind, spec.target)
        var secret = spec.credential?.trimmingCharacters(in: .whitespacesAndNewlines)
        if secret?.isEmpty == true { secret = nil }
        if let name = inputs.credential {
            if inputs.credentialRequired && secret == nil && !keepsStoredSecret {
                throw InvalidInput(field: "credential", message: "\(spec.kind.displayName) needs its \(name)")
            }
            if let secret, let problem = credentialProblem(secret, kind: spec.kind) {
                throw InvalidInput(field: "credential", message: problem)
            }
        } else if inputs.generatesSigningSecret {
            if let given = secret, WebhookSecret(given) == nil {
                throw InvalidInput(field: "credential", message: "a signing secret is whsec_ followed by the base64 of 24 to 64 random bytes; "
                                   + "leave it empty to have one made")
            }
        } else if secret != nil {
            throw InvalidInput(field: "credential", message: "\(spec.kind.displayName) takes no credential: its URL is the credential")
        }
        var recipient = spec.recipient?.trimmingCharacters(in: .whitespacesAndNewlines)
        if recipient?.isEmpty == true { recipient = nil }
        if let name = inputs.recipient {
            guard let chat = recipient else { throw InvalidInput(field: "recipient", message: "\(spec.kind.displayName) needs the \(name)") }
            guard isTelegramChat(chat) else {
                throw InvalidInput(field: "recipient", message: "\"\(chat)\" is not a chat id: a number like -1001234567890, or @channelname")
            }
        } else if recipient != nil {
            throw InvalidInput(field: "recipient", message: "\(spec.kind.displayName) takes no recipient besides its URL")
        }
        var template = spec.template
        if template?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { template = nil }
        if inputs.needsTemplate {
            guard let text = template else {
                throw InvalidInput(field: "template", message: "a custom webhook needs a template of its JSON body")
            }
            if let problem = templateProblem(text) { throw InvalidInput(field: "template", message: problem) }
        } else if template != nil {
            throw InvalidInput(field: "template", message: "only a custom webhook takes a template")
        }
        return NewChannel(kind: spec.kind, secret: secret, settings: ChannelSettings(
            name: spec.name.trimmingCharacters(in: .whitespacesAndNewlines), target: target, recipient: recipient, bodyTemplate: template,
            enabled: spec.enabled, minSeverity: spec.minSeverity, domainIDs: spec.domainIDs, appIDs: spec.appIDs))
    }

    /// The target as stored (trimmed; the provider's API when left empty), once it is right for the
    /// kind: an email address, or a URL the webhook policy accepts. Shared by `validated` and config
    /// files (`apply`).
    public static func checkedTarget(kind: ChannelKind, _ given: String) throws(InvalidInput) -> String {
        var target = given.trimmingCharacters(in: .whitespacesAndNewlines)
        switch kind.inputs.target {
        case .emailAddress:
            try validateEmail(target)
        case .url:
            try validateURL(target, kind: kind)
            if kind == .ntfy, !isNtfyTopic(Ntfy.split(target).topic) {
                throw InvalidInput(message: "an ntfy URL ends in its topic, like https://ntfy.sh/your-topic (letters, digits, - and _)")
            }
        case .endpoint(let fallback, _):
            if target.isEmpty { target = fallback }
            try validateURL(target, kind: kind)
        }
        return target
    }

    /// One address, no display name, no spaces or line breaks (it goes into SMTP's RCPT TO).
    public static func validateEmail(_ address: String) throws(InvalidInput) {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              address.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0 != "<" && $0 != ">" && $0 != "," && $0 != "\u{7F}" })
        else { throw InvalidInput(message: "\"\(address)\" is not an email address like ops@example.com") }
    }

    static func validateURL(_ url: String, kind: ChannelKind) throws(InvalidInput) {
        guard !url.isEmpty else { throw InvalidInput(message: "\(kind.displayName) needs its URL") }
        do {
            _ = try WebhookAddressPolicy.parse(url)
        } catch {
            throw InvalidInput(message: error.description)
        }
    }

    /// Credentials travel in a header or a URL path: one line of printable ASCII, whatever the kind.
    static func credentialProblem(_ credential: String, kind: ChannelKind) -> String? {
        guard credential.count <= 512, credential.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return "the \(kind.inputs.credential ?? "credential") must be one line of letters, digits and punctuation"
        }
        if kind == .telegram {
            // "123456789:AA…": the bot's id, a colon, and the secret part (it lands in the URL path).
            let parts = credential.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].allSatisfy(\.isNumber),
                  parts[1].unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" })
            else { return "a Telegram bot token looks like 123456789:AAE…, as @BotFather gives it" }
        }
        return nil
    }

    static func isTelegramChat(_ chat: String) -> Bool {
        if chat.hasPrefix("@") {
            let name = chat.dropFirst()
            return name.count >= 4 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
        let digits = chat.hasPrefix("-") ? chat.dropFirst() : Substring(chat)
        return !digits.isEmpty && digits.count <= 20 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    static func isNtfyTopic(_ topic: String) -> Bool {
        (1...64).contains(topic.count) && topic.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// Nil when the template can be rendered into JSON; the reason otherwise.
    static func templateProblem(_ template: String) -> String? {
        if template.utf8.count > 32_768 { return "the template is longer than 32 KiB" }
        do {
            try CustomWebhook.check(template)
            return nil
        } catch {
            return error.description
        }
    }

    /// What a test notification came to, for the settings page and the API to show in place.
    public struct TestOutcome: Sendable {
        public var deliveryID: Int64
        /// pending (a running notifier took it first, or it will be retried), sent or failed.
        public var state: DeliveryState
        /// The attempt this request made, nil when a running notifier took the delivery first.
        public var attempt: DeliveryAttemptRecord?

        public var delivered: Bool { attempt?.succeeded == true }

        /// One sentence with the provider's answer: "Delivered: answered 202: {…}", "Not delivered:
        /// answered 400: Invalid Routing Key; PagerDuty refused the message".
        public var summary: String {
            guard let attempt else { return "Queued: the notifier is sending it; its answer shows under Last delivery." }
            var answer = attempt.responseCode.map { "answered \($0)" } ?? "no answer"
            if let response = attempt.response, !response.isEmpty { answer += ": \(response)" }
            if attempt.succeeded { return "Delivered (\(answer))." }
            let retry = state == .pending ? " It stays queued and will be retried." : ""
            return "Not delivered (\(answer)): \(attempt.error ?? "no reason recorded").\(retry)"
        }
    }

    /// Queues a test notification and delivers it now, on this thread (the send is bounded by the
    /// webhook timeout), so the caller can show the provider's answer.
    public static func testNow(channelID: Int64, in database: some SettingsStore & AlertStore & Sendable, environment: [String: String],
                               listening: ListeningAddress? = nil) throws -> TestOutcome {
        // The settings as they are now (the page may have just allowed private receivers), and the
        // row leased to this request, so no running notifier answers in its place.
        let configuration = try NotificationSettings.deliveryConfiguration(environment: environment, database: database, listening: listening)
        let deliveryID = try sendTest(channelID: channelID, in: database, leasedTo: configuration.workerName)
        try OutboxDeliverer(store: database, configuration: configuration).deliverDueBatch(onlyID: deliveryID)
        return TestOutcome(deliveryID: deliveryID, state: try database.delivery(id: deliveryID)?.state ?? .pending,
                           attempt: try database.deliveryAttempts(deliveryID: deliveryID).last)
    }

    /// Queues a test notification for the channel, whatever its filters. Returns the delivery id.
    /// `leasedTo`: the worker that sends it right away (see `enqueueTestNotification(leasedTo:)`); nil
    /// leaves it to the notifier.
    public static func sendTest(channelID: Int64, in database: some SettingsStore & AlertStore, now: Date = Date(),
                                leasedTo worker: String? = nil) throws -> Int64 {
        guard let channel = try database.channel(id: channelID) else {
            throw InvalidInput(field: "id", message: "there is no channel \(channelID)")
        }
        let event = NotificationEvent(kind: .test, occurredAt: now, domainHost: "example.com", severity: .info,
                                      title: "channel \(channel.id) (\(channel.kind.rawValue)) works",
                                      detail: "You asked aasa-monitor to send a test notification through this \(channel.kind.displayName) channel. "
                                          + "Real alerts through this channel look like this one.")
        return try database.enqueueTestNotification(channelID: channelID, event: event, leasedTo: worker)
    }
}
