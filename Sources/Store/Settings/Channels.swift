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
    /// Only these domains' events (besides `appIDs`'); both empty means every domain.
    public var domainIDs: [Int64]
    /// Also the events of the domains these apps claim.
    public var appIDs: [Int64]
    /// The target and secret as a config file wrote them (`${NAME}` references unresolved), for
    /// `export --yaml`; nil when not set by a config file (or the target was changed by hand since).
    public var targetTemplate: String?
    public var secretTemplate: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: Int64, kind: ChannelKind, name: String, target: String, secret: String?, recipient: String? = nil,
                bodyTemplate: String? = nil, enabled: Bool, minSeverity: AlertSeverity, disabledReason: String?,
                domainIDs: [Int64], appIDs: [Int64] = [], targetTemplate: String? = nil, secretTemplate: String? = nil, createdAt: Date, updatedAt: Date) {
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
        self.appIDs = appIDs
        self.targetTemplate = targetTemplate
        self.secretTemplate = secretTemplate
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What a person sets on a channel and may change later: everything but its kind and its secret,
/// which are set once, when the channel is made. The form, the API, the CLI and config files add
/// and edit channels through this one value.
public struct ChannelSettings: Sendable, Equatable {
    public var name: String
    public var target: String
    public var recipient: String?
    public var bodyTemplate: String?
    public var enabled: Bool
    public var minSeverity: AlertSeverity
    /// Only these domains' events (besides `appIDs`'); both empty: every domain.
    public var domainIDs: [Int64]
    /// Also the events of these apps' domains.
    public var appIDs: [Int64]

    public init(name: String = "", target: String, recipient: String? = nil, bodyTemplate: String? = nil, enabled: Bool = true,
                minSeverity: AlertSeverity = .info, domainIDs: [Int64] = [], appIDs: [Int64] = []) {
        self.name = name
        self.target = target
        self.recipient = recipient
        self.bodyTemplate = bodyTemplate
        self.enabled = enabled
        self.minSeverity = minSeverity
        self.domainIDs = domainIDs
        self.appIDs = appIDs
    }

    public init(_ channel: ChannelRecord) {
        self.init(name: channel.name, target: channel.target, recipient: channel.recipient, bodyTemplate: channel.bodyTemplate,
                  enabled: channel.enabled, minSeverity: channel.minSeverity, domainIDs: channel.domainIDs, appIDs: channel.appIDs)
    }
}

/// A channel to add: its kind and secret, set once, and its settings.
public struct NewChannel: Sendable, Equatable {
    public var kind: ChannelKind
    public var secret: String?
    public var settings: ChannelSettings

    public init(kind: ChannelKind, secret: String? = nil, settings: ChannelSettings) {
        self.kind = kind
        self.secret = secret
        self.settings = settings
    }

    public init(kind: ChannelKind, name: String = "", target: String, secret: String? = nil, recipient: String? = nil,
                bodyTemplate: String? = nil, minSeverity: AlertSeverity = .info, domainIDs: [Int64] = []) {
        self.init(kind: kind, secret: secret, settings: ChannelSettings(name: name, target: target, recipient: recipient, bodyTemplate: bodyTemplate,
                                                                        minSeverity: minSeverity, domainIDs: domainIDs))
    }
}

extension SettingsStore {
    /// Adds a channel and its domain and app filters in one statement.
    public func createChannel(_ new: NewChannel) throws -> ChannelRecord {
        let s = new.settings
        guard let row = try firstRow(Self.insertChannel, new.kind.rawValue, s.name, s.target, new.secret,
                                     s.minSeverity.rawValue, SQLArray(s.domainIDs.map { Int($0) }),
                                     s.recipient, s.bodyTemplate, s.enabled, SQLArray(s.appIDs.map { Int($0) }))
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

    /// The channel named `name` (exactly; names are unique among named channels, migration 0064).
    /// Nil for the empty name, which any number of channels may have.
    public func channel(named name: String) throws -> ChannelRecord? {
        guard !name.isEmpty else { return nil }
        return try firstRow(Self.selectChannels + " WHERE c.name = $1", name).map(ChannelRecord.init(row:))
    }

    /// Saves the editable fields and, when `secret` is given, a new secret (typed by a person: it no
    /// longer comes from a config file's reference). Enabling a channel clears the reason it was
    /// disabled for. Returns nil when there is no such channel.
    @discardableResult
    public func updateChannel(id: Int64, _ changes: ChannelSettings, secret: String? = nil) throws -> ChannelRecord? {
        guard try firstRow(Self.updateChannelRow, id, changes.name, changes.target, changes.enabled,
                           changes.minSeverity.rawValue, SQLArray(changes.domainIDs.map { Int($0) }),
                           changes.recipient, changes.bodyTemplate, SQLArray(changes.appIDs.map { Int($0) }), secret) != nil
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
                         FROM channel_domains cd WHERE cd.channel_id = c.id), '') AS domain_ids,
               coalesce((SELECT string_agg(ca.app_id::text, ',' ORDER BY ca.app_id)
                         FROM channel_apps ca WHERE ca.channel_id = c.id), '') AS app_ids
        FROM channels c
        """
    }

    static var insertChannel: SQL {
        """
        WITH c AS (
            INSERT INTO channels (kind, name, target, secret, min_severity, recipient, body_template, enabled)
            VALUES ($1, $2, $3, $4, $5, $7, $8, $9)
            RETURNING *
        ), d AS (
            INSERT INTO channel_domains (channel_id, domain_id)
            SELECT c.id, unnest($6::bigint[]) FROM c
            RETURNING domain_id
        ), a AS (
            INSERT INTO channel_apps (channel_id, app_id)
            SELECT c.id, unnest($10::bigint[]) FROM c
            RETURNING app_id
        )
        SELECT c.id, c.kind, c.name, c.target, c.secret, c.recipient, c.body_template, c.enabled, c.min_severity,
               c.disabled_reason, c.target_template, c.secret_template, c.created_at, c.updated_at,
               coalesce((SELECT string_agg(domain_id::text, ',' ORDER BY domain_id) FROM d), '') AS domain_ids,
               coalesce((SELECT string_agg(app_id::text, ',' ORDER BY app_id) FROM a), '') AS app_ids
        FROM c
        """
    }

    static var updateChannelRow: SQL {
        """
        WITH c AS (
            UPDATE channels SET name = $2, target = $3, enabled = $4, min_severity = $5, recipient = $7, body_template = $8,
                   disabled_reason = CASE WHEN $4 THEN NULL ELSE disabled_reason END, updated_at = now(),
                   -- A target changed by hand no longer comes from the config file's template.
                   target_template = CASE WHEN target = $3 THEN target_template END,
                   secret = coalesce($10, secret),
                   secret_template = CASE WHEN $10::text IS NULL THEN secret_template END
            WHERE id = $1
            RETURNING id
        ), gone AS (
            DELETE FROM channel_domains WHERE channel_id IN (SELECT id FROM c)
              AND NOT (domain_id = ANY ($6::bigint[]))
        ), added AS (
            INSERT INTO channel_domains (channel_id, domain_id)
            SELECT c.id, unnest($6::bigint[]) FROM c
            ON CONFLICT DO NOTHING
        ), apps_gone AS (
            DELETE FROM channel_apps WHERE channel_id IN (SELECT id FROM c)
              AND NOT (app_id = ANY ($9::bigint[]))
        ), apps_added AS (
            INSERT INTO channel_apps (channel_id, app_id)
            SELECT c.id, unnest($9::bigint[]) FROM c
            ON CONFLICT DO NOTHING
        )
        SELECT id FROM c
        """
    }
}

extension ChannelRecord {
    init(row: Row) throws {
        let kind: ChannelKind = try row.decode("kind"), severity: AlertSeverity = try row.decode("min_severity")
        let domains: String = try row.decode("domain_ids"), apps: String = try row.decode("app_ids")
        self.init(id: try row.decode("id"), kind: kind, name: try row.decode("name"), target: try row.decode("target"),
                  secret: try row.decode("secret"), recipient: try row.decode("recipient"),
                  bodyTemplate: try row.decode("body_template"), enabled: try row.decode("enabled"), minSeverity: severity,
                  disabledReason: try row.decode("disabled_reason"),
                  domainIDs: domains.split(separator: ",").compactMap { Int64($0) }, appIDs: apps.split(separator: ",").compactMap { Int64($0) },
                  targetTemplate: try row.decode("target_template"), secretTemplate: try row.decode("secret_template"),
                  createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"))
    }
}
