import Vocabulary
import Foundation

/// Where notifications go: an email address, our signed JSON webhook, or one of the providers teams
/// already run. The raw values are the words of the CLI, the API, config files and the column.
public enum ChannelKind: String, Sendable, Codable, CaseIterable, SQLDecodable, SQLEncodable {
    case email, webhook, slack
    /// PagerDuty Events API v2: trigger, and resolve with the same dedup_key.
    case pagerduty
    /// Opsgenie Alert API: create, and close by alias.
    case opsgenie
    /// Microsoft Teams through a Workflows (Power Automate) webhook, as an Adaptive Card.
    case teams
    case discord
    case googleChat = "google-chat"
    /// Mattermost and Rocket.Chat incoming webhooks (both take `{"text": markdown}`).
    case mattermost
    /// Telegram Bot API sendMessage.
    case telegram
    case ntfy
    /// A webhook whose JSON body is the user's Mustache template.
    case customWebhook = "custom-webhook"
}

/// A channel as stored. `secret` is the kind's credential, never shown once entered: the webhook
/// signing secret (`whsec_…`), a PagerDuty routing key, an Opsgenie API key, a Telegram bot token, an
/// ntfy access token; nil for email, Slack and the chat webhooks whose URL is the credential.
public struct ChannelRecord: Sendable, Equatable {
    public var id: Int64
    public var kind: ChannelKind
    public var name: String
    /// The email address, or the URL the provider is reached at (for PagerDuty, Opsgenie and
    /// Telegram the API's base URL: EU regions and test receivers are other targets).
    public var target: String
    public var secret: String?
    /// Telegram's chat id; nil for the other kinds.
    public var recipient: String?
    /// The custom webhook's Mustache template of the JSON body; nil for the other kinds.
    public var bodyTemplate: String?
    public var enabled: Bool
    public var minSeverity: AlertSeverity
    /// Why the system switched the channel off (e.g. the receiver answered 410 Gone).
    public var disabledReason: String?
    /// Only these domains' events; empty means every domain.
    public var domainIDs: [Int64]
    /// The target and secret as a config file wrote them (`${NAME}` references unresolved), for
    /// `export --yaml`; nil when not set by a config file (or the target was changed by hand since).
    public var targetTemplate: String?
    public var secretTemplate: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: Int64, kind: ChannelKind, name: String, target: String, secret: String?, recipient: String? = nil,
                bodyTemplate: String? = nil, enabled: Bool, minSeverity: AlertSeverity, disabledReason: String?,
                domainIDs: [Int64], targetTemplate: String? = nil, secretTemplate: String? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.kind = kind
        self.name = name
        self.target = target
        self.secret = secret
        self.recipient = recipient
        self.bodyTemplate = bodyTemplate
        self.enabled = enabled
        self.minSeverity = minSeverity
        self.disabledReason = disabledReason
        self.domainIDs = domainIDs
        self.targetTemplate = targetTemplate
        self.secretTemplate = secretTemplate
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What a user configures when adding a channel.
public struct NewChannel: Sendable, Equatable {
    public var kind: ChannelKind
    public var name: String
    public var target: String
    public var secret: String?
    public var recipient: String?
    public var bodyTemplate: String?
    public var minSeverity: AlertSeverity
    public var domainIDs: [Int64]

    public init(kind: ChannelKind, name: String = "", target: String, secret: String? = nil, recipient: String? = nil,
                bodyTemplate: String? = nil, minSeverity: AlertSeverity = .info, domainIDs: [Int64] = []) {
        self.kind = kind
        self.name = name
        self.target = target
        self.secret = secret
        self.recipient = recipient
        self.bodyTemplate = bodyTemplate
        self.minSeverity = minSeverity
        self.domainIDs = domainIDs
    }
}

/// The editable part of a channel (the kind and the secret never change after creation).
public struct ChannelChanges: Sendable, Equatable {
    public var name: String
    public var target: String
    public var recipient: String?
    public var bodyTemplate: String?
    public var enabled: Bool
    public var minSeverity: AlertSeverity
    public var domainIDs: [Int64]

    public init(name: String, target: String, recipient: String? = nil, bodyTemplate: String? = nil, enabled: Bool,
                minSeverity: AlertSeverity, domainIDs: [Int64]) {
        self.name = name
        self.target = target
        self.recipient = recipient
        self.bodyTemplate = bodyTemplate
        self.enabled = enabled
        self.minSeverity = minSeverity
        self.domainIDs = domainIDs
    }

    public init(_ channel: ChannelRecord) {
        self.init(name: channel.name, target: channel.target, recipient: channel.recipient, bodyTemplate: channel.bodyTemplate,
                  enabled: channel.enabled, minSeverity: channel.minSeverity, domainIDs: channel.domainIDs)
    }
}

extension SettingsStore {
    /// Adds a channel and its domain filter in one statement.
    public func createChannel(_ new: NewChannel) throws -> ChannelRecord {
        guard let row = try firstRow(Self.insertChannel, new.kind.rawValue, new.name, new.target, new.secret,
                                     new.minSeverity.rawValue, SQLArray(new.domainIDs.map { Int($0) }),
                                     new.recipient, new.bodyTemplate)
        else { throw DatabaseError.decoding(column: "id", message: "INSERT INTO channels returned no row") }
        return try ChannelRecord(row: row)
    }

    /// Every channel, oldest first.
    public func channels() throws -> [ChannelRecord] {
        try rows(Self.selectChannels + " ORDER BY c.id").map(ChannelRecord.init(row:))
    }

    public func channel(id: Int64) throws -> ChannelRecord? {
        try firstRow(Self.selectChannels + " WHERE c.id = $1", id).map(ChannelRecord.init(row:))
    }

    /// Saves the editable fields; enabling a channel clears the reason it was disabled for.
    /// Returns nil when there is no such channel.
    @discardableResult
    public func updateChannel(id: Int64, _ changes: ChannelChanges) throws -> ChannelRecord? {
        guard try firstRow(Self.updateChannelRow, id, changes.name, changes.target, changes.enabled,
                           changes.minSeverity.rawValue, SQLArray(changes.domainIDs.map { Int($0) }),
                           changes.recipient, changes.bodyTemplate) != nil
        else { return nil }
        return try channel(id: id)
    }

    /// What a config file set beyond the editable fields: a new secret (nil keeps the stored one)
    /// and the templates `export --yaml` writes back. False when there is no such channel.
    @discardableResult
    public func setChannelConfig(id: Int64, secret: String?, targetTemplate: String?, secretTemplate: String?) throws -> Bool {
        try execute("""
            UPDATE channels SET secret = coalesce($2, secret), target_template = $3, secret_template = $4, updated_at = now()
            WHERE id = $1
            """, id, secret, targetTemplate, secretTemplate) == 1
    }

    /// Removes a channel; its deliveries and their log go with it. False when there was none.
    @discardableResult
    public func deleteChannel(id: Int64) throws -> Bool {
        try execute("DELETE FROM channels WHERE id = $1", id) > 0
    }

    static var selectChannels: SQL {
        """
        SELECT c.id, c.kind, c.name, c.target, c.secret, c.recipient, c.body_template, c.enabled, c.min_severity,
               c.disabled_reason, c.target_template, c.secret_template, c.created_at, c.updated_at,
               coalesce((SELECT string_agg(cd.domain_id::text, ',' ORDER BY cd.domain_id)
                         FROM channel_domains cd WHERE cd.channel_id = c.id), '') AS domain_ids
        FROM channels c
        """
    }

    static var insertChannel: SQL {
        """
        WITH c AS (
            INSERT INTO channels (kind, name, target, secret, min_severity, recipient, body_template)
            VALUES ($1, $2, $3, $4, $5, $7, $8)
            RETURNING *
        ), d AS (
            INSERT INTO channel_domains (channel_id, domain_id)
            SELECT c.id, unnest($6::bigint[]) FROM c
            RETURNING domain_id
        )
        SELECT c.id, c.kind, c.name, c.target, c.secret, c.recipient, c.body_template, c.enabled, c.min_severity,
               c.disabled_reason, c.target_template, c.secret_template, c.created_at, c.updated_at,
               coalesce((SELECT string_agg(domain_id::text, ',' ORDER BY domain_id) FROM d), '') AS domain_ids
        FROM c
        """
    }

    static var updateChannelRow: SQL {
        """
        WITH c AS (
            UPDATE channels SET name = $2, target = $3, enabled = $4, min_severity = $5, recipient = $7, body_template = $8,
                   disabled_reason = CASE WHEN $4 THEN NULL ELSE disabled_reason END, updated_at = now(),
                   -- A target changed by hand no longer comes from the config file's template.
                   target_template = CASE WHEN target = $3 THEN target_template END
            WHERE id = $1
            RETURNING id
        ), gone AS (
            DELETE FROM channel_domains WHERE channel_id IN (SELECT id FROM c)
              AND NOT (domain_id = ANY ($6::bigint[]))
        ), added AS (
            INSERT INTO channel_domains (channel_id, domain_id)
            SELECT c.id, unnest($6::bigint[]) FROM c
            ON CONFLICT DO NOTHING
        )
        SELECT id FROM c
        """
    }
}

extension ChannelRecord {
    init(row: Row) throws {
        let kind: ChannelKind = try row.decode("kind"), severity: AlertSeverity = try row.decode("min_severity")
        let domains: String = try row.decode("domain_ids")
        self.init(id: try row.decode("id"), kind: kind, name: try row.decode("name"), target: try row.decode("target"),
                  secret: try row.decode("secret"), recipient: try row.decode("recipient"),
                  bodyTemplate: try row.decode("body_template"), enabled: try row.decode("enabled"), minSeverity: severity,
                  disabledReason: try row.decode("disabled_reason"),
                  domainIDs: domains.split(separator: ",").compactMap { Int64($0) },
                  targetTemplate: try row.decode("target_template"), secretTemplate: try row.decode("secret_template"),
                  createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"))
    }
}
