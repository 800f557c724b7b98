import Vocabulary
import ArgumentParser
import Foundation
import Notify
import Store

extension AASAMonitor {
    /// `aasa-monitor channel …`: where alerts are sent (email addresses and webhooks).
    struct Channel: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add, list, test and remove notification channels (email and webhooks).",
            subcommands: [Add.self, List.self, Test.self, Remove.self])
    }
}

extension AlertSeverity: ExpressibleByArgument {}

extension AASAMonitor.Channel {
    enum AddKind: String, ExpressibleByArgument, CaseIterable {
        case email, webhook
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an email address or a webhook URL; a webhook's signing secret is printed once.",
            discussion: """
                Webhooks are POSTed a JSON event signed per Standard Webhooks (webhook-id, webhook-timestamp, \
                webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">). The secret (whsec_…) is shown \
                only now: store it in the receiver. --slack sends a Slack-compatible {"text", "blocks"} message instead.
                """)

        @Argument(help: "email or webhook") var kind: AddKind
        @Argument(help: "The email address, or the webhook's https:// URL.") var target: String
        @Flag(help: "Send a Slack-compatible payload (webhooks only).") var slack = false
        @Option(help: "A name to recognise the channel by.") var name: String = ""
        @Option(name: .customLong("min-severity"), help: "Send only events at least this severe: critical, warning or info.")
        var minSeverity: AlertSeverity = .info
        @Option(name: .customLong("domain"), help: "Only this registered domain's events (repeatable). Default: every domain.")
        var domains: [String] = []
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            if slack && kind != .webhook { throw ValidationError("--slack applies to webhooks only") }
        }

        func run() throws {
            let opened = try database.open()
            defer { try? opened.close() }
            let channelKind: ChannelKind = kind == .email ? .email : (slack ? .slack : .webhook)
            var domainIDs: [Int64] = []
            for host in domains {
                guard let domain = try opened.database.domain(host: host.lowercased()) else {
                    StandardError.log("error: \(host) is not a registered domain (use its ASCII form, e.g. xn--bcher-kva.example)")
                    throw ExitCode(64)
                }
                domainIDs.append(domain.id)
            }
            let created: ChannelSetup.Created
            do {
                created = try ChannelSetup.add(kind: channelKind, target: target, name: name, minSeverity: minSeverity,
                                               domainIDs: domainIDs, in: opened.database)
            } catch let invalid as ChannelSetup.InvalidInput {
                StandardError.log("error: \(invalid.message)")
                throw ExitCode(64)
            }
            Terminal.print("added channel \(created.channel.id): \(created.channel.kind.rawValue) \(created.channel.target)")
            if let secret = created.secret {
                Terminal.print("signing secret (shown only once; keep it in the receiver to verify webhook-signature):")
                Terminal.print("\(secret)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the channels, with their filters and state.")
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open()
            defer { try? opened.close() }
            let channels = try opened.database.channels()
            if json {
                let items: [[String: Any]] = channels.map { c in
                    var item: [String: Any] = ["id": c.id, "kind": c.kind.rawValue, "name": c.name, "target": c.target,
                                               "enabled": c.enabled, "min_severity": c.minSeverity.rawValue,
                                               "domain_ids": c.domainIDs]
                    if let reason = c.disabledReason { item["disabled_reason"] = reason }
                    return item
                }
                let data = try JSONSerialization.data(withJSONObject: ["channels": items], options: [.sortedKeys])
                Terminal.print(TerminalText(json: String(decoding: data, as: UTF8.self)))
                return
            }
            if channels.isEmpty {
                Terminal.print("No channels yet. Add one with: aasa-monitor channel add email ops@example.com")
                return
            }
            for c in channels {
                var line: TerminalText = "\(c.id)\t\(c.kind.rawValue)\t\(c.target)\tmin-severity=\(c.minSeverity.rawValue)"
                line += c.domainIDs.isEmpty ? "\tall domains" : "\tdomains=\(c.domainIDs.map(String.init).joined(separator: ","))"
                line += c.enabled ? "\tenabled" : "\tdisabled\(c.disabledReason.map { ": \($0)" } ?? "")"
                if !c.name.isEmpty { line += "\t\(c.name)" }
                Terminal.print(line)
            }
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a test notification through a channel now and print what the receiver answered.",
            discussion: "Uses SMTP_URL/SMTP_FROM (or the stored SMTP settings) for email channels. Exit status 0 when delivered, 1 when not.")
        @Argument(help: "The channel's id (see `channel list`).") var id: Int64
        @Option(help: "Seconds to wait for the delivery.") var timeout: Int = 30
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open()
            defer { try? opened.close() }
            let db = opened.database
            let deliveryID: Int64
            do {
                deliveryID = try ChannelSetup.sendTest(channelID: id, in: db)
            } catch let invalid as ChannelSetup.InvalidInput {
                StandardError.log("error: \(invalid.message)")
                throw ExitCode(64)
            }
            let environment = ProcessInfo.processInfo.environment
            let configuration = try NotificationSettings.deliveryConfiguration(environment: environment, database: db)
            let deliverer = OutboxDeliverer(database: db, configuration: configuration)
            // Deliver it here (a running serve may take it first: then wait for its first attempt).
            let deadline = ContinuousClock.now + .seconds(max(1, timeout))
            var attempts: [DeliveryAttemptRecord] = []
            while ContinuousClock.now < deadline {
                try deliverer.deliverDueBatch(onlyID: deliveryID)
                attempts = try db.deliveryAttempts(deliveryID: deliveryID)
                if !attempts.isEmpty { break }
                usleep(100_000)
            }
            guard let last = attempts.last else {
                Terminal.print("test notification \(deliveryID) queued, but no attempt was made within \(timeout) s")
                throw ExitCode(1)
            }
            var answer: TerminalText = last.responseCode.map { "answered \($0)" } ?? "no answer"
            if let response = last.response { answer += ": \(response)" }
            if last.succeeded {
                Terminal.print("delivered test notification \(deliveryID) to channel \(id) (\(answer))")
            } else {
                Terminal.print("test notification \(deliveryID) to channel \(id) failed (\(answer)): \(last.error ?? "unknown error")")
                if let state = try db.delivery(id: deliveryID)?.state, state == .pending {
                    Terminal.print("it stays queued and will be retried by the notifier")
                }
                throw ExitCode(1)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a channel (and its delivery log).")
        @Argument(help: "The channel's id (see `channel list`).") var id: Int64
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open()
            defer { try? opened.close() }
            guard try opened.database.deleteChannel(id: id) else {
                StandardError.log("error: there is no channel \(id)")
                throw ExitCode(1)
            }
            Terminal.print("removed channel \(id)")
        }
    }
}
