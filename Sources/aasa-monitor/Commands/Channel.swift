import Vocabulary
import ArgumentParser
import Foundation
import Notify
import Store

extension AASAMonitor {
    /// `aasa-monitor channel …`: where alerts are sent (email addresses and webhooks).
    struct Channel: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add, list, test and remove notification channels (email, webhooks, on-call and chat providers).",
            subcommands: [Add.self, List.self, Test.self, Remove.self])
    }
}

extension AlertSeverity: ExpressibleByArgument {}

extension ChannelKind: ExpressibleByArgument {}

extension AASAMonitor.Channel {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a channel: an email address, a webhook, or an on-call or chat provider.",
            discussion: """
                channel add email ops@example.com
                channel add webhook https://hooks.example.com/aasa      (signed JSON event; the whsec_ secret is printed once)
                channel add pagerduty ROUTING_KEY [--endpoint https://events.eu.pagerduty.com]
                channel add opsgenie API_KEY [--endpoint https://api.eu.opsgenie.com]
                channel add telegram BOT_TOKEN --chat-id=-1001234567890
                channel add teams|discord|google-chat|mattermost|slack WEBHOOK_URL
                channel add ntfy https://ntfy.sh/TOPIC [--token tk_…]
                channel add custom-webhook URL --template body.mustache
                A credential given as - is read from standard input (so it stays out of the shell's history).                 Credentials are stored and used, never printed again.
                """)

        @Argument(help: "\(ChannelKind.allCases.map(\.rawValue).joined(separator: ", "))") var kind: ChannelKind
        @Argument(help: "The email address or URL; for pagerduty, opsgenie and telegram the routing key, API key or bot token.")
        var value: String
        @Flag(help: "Send a Slack-compatible payload (same as the kind slack).") var slack = false
        @Option(help: "The provider's API for pagerduty, opsgenie and telegram (an EU region, a proxy). Default: the provider's own.")
        var endpoint: String?
        @Option(name: .customLong("chat-id"), help: "Telegram: the chat's id (--chat-id=-100…: a negative id needs the =), or @channelname.") var chatID: String?
        @Option(help: "ntfy: an access token for a protected topic (- reads it from standard input).") var token: String?
        @Option(help: "custom-webhook: a file holding the Mustache template of the JSON body.") var template: String?
        @Option(help: "A name to recognise the channel by.") var name: String = ""
        @Option(name: .customLong("min-severity"), help: "Send only events at least this severe: critical, warning or info.")
        var minSeverity: AlertSeverity = .info
        @Option(name: .customLong("domain"), help: "Only this registered domain's events (repeatable). Default: every domain.")
        var domains: [String] = []
        @Option(name: .customLong("app"), help: "Also the events of this app's domains, by app name (repeatable).")
        var apps: [String] = []
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            if slack && kind != .webhook && kind != .slack { throw ValidationError("--slack applies to webhooks only") }
        }

        /// Where the positional value goes: the credential for the kinds whose target is the provider's API.
        func spec() throws -> ChannelSpec {
            let kind = slack ? ChannelKind.slack : self.kind
            var spec = ChannelSpec(kind: kind, name: name, minSeverity: minSeverity)
            if case .endpoint = kind.inputs.target {
                spec.credential = try Self.readIfDash(value)
                spec.target = endpoint ?? ""
            } else {
                spec.target = value
                if endpoint != nil { throw ValidationError("--endpoint applies to pagerduty, opsgenie and telegram; give \(kind.rawValue) its URL") }
                spec.credential = try token.map(Self.readIfDash)
            }
            spec.recipient = chatID
            if let template {
                spec.template = try String(contentsOfFile: template, encoding: .utf8)
            }
            return spec
        }

        static func readIfDash(_ value: String) throws -> String {
            guard value == "-" else { return value }
            return (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces)
        }

        func run() throws {
            let opened = try database.open()
            defer { try? opened.close() }
            var spec: ChannelSpec
            do {
                spec = try self.spec()
            } catch {
                StandardError.log("error: \(error)")
                throw ExitCode(64)
            }
            for host in domains {
                guard let domain = try opened.database.domain(host: host.lowercased()) else {
                    StandardError.log("error: \(host) is not a registered domain (use its ASCII form, e.g. xn--bcher-kva.example)")
                    throw ExitCode(64)
                }
                spec.domainIDs.append(domain.id)
            }
            for name in apps {
                guard let app = try opened.database.app(name: name) else {
                    StandardError.log("error: no app is named \(name) (aasa-monitor app list)")
                    throw ExitCode(64)
                }
                spec.appIDs.append(app.id)
            }
            let created: ChannelSetup.Created
            do {
                created = try ChannelSetup.add(spec, in: opened.database)
            } catch let invalid as ChannelSetup.InvalidInput {
                StandardError.log("error: \(invalid.message)")
                throw ExitCode(64)
            }
            Terminal.print("added channel \(created.channel.id): \(created.channel.kind.rawValue) \(created.channel.shownTarget(toAdmin: true))")
            let allowed = try NotificationSettings.allowsPrivateReceivers(environment: ProcessInfo.processInfo.environment, database: opened.database)
            if let warning = ChannelSetup.privateReceiverWarning(kind: created.channel.kind, target: created.channel.target, allowsPrivate: allowed) {
                StandardError.log("warning: \(warning)")
            }
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
                    var item: [String: Any] = ["id": c.id, "kind": c.kind.rawValue, "name": c.name, "target": c.shownTarget(toAdmin: true),
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
                var line: TerminalText = "\(c.id)\t\(c.kind.rawValue)\t\(c.shownTarget(toAdmin: true))\tmin-severity=\(c.minSeverity.rawValue)"
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
            let environment = ProcessInfo.processInfo.environment
            let configuration = try NotificationSettings.deliveryConfiguration(environment: environment, database: db)
            let deliveryID: Int64
            do {
                // Leased to this process: a running serve leaves it to us (it would answer with its own settings).
                deliveryID = try ChannelSetup.sendTest(channelID: id, in: db, leasedTo: configuration.workerName)
            } catch let invalid as ChannelSetup.InvalidInput {
                StandardError.log("error: \(invalid.message)")
                throw ExitCode(64)
            }
            let deliverer = OutboxDeliverer(store: db, configuration: configuration)
            // Deliver it here (should this process have lost its lease, wait for the notifier's first attempt).
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
