import CCurl
import Foundation
import Outbound
import Store

/// Sends a notification as one email over SMTP with libcurl. Blocking: call it from a worker
/// thread. Never throws: every outcome, including a refused login, is a `DeliveryResult` that the
/// outbox records as an attempt.
public struct MailSender: Sendable {
    public var settings: MailSettings
    public var links: NotificationLinks
    public var resolver: any HostResolver

    public init(settings: MailSettings, links: NotificationLinks, resolver: any HostResolver = SystemResolver()) {
        self.settings = settings
        self.links = links
        self.resolver = resolver
    }

    /// `deliveryKey` is the outbox row's stable id: it becomes the Message-ID, so a retried
    /// message carries the same id and a mail client can collapse repeats.
    public func message(for event: NotificationEvent, to address: String, deliveryKey: String, now: Date) -> MailMessage {
        let text = NotificationText(event: event, links: links)
        let domainPart = settings.from.split(separator: "@").last.map { String($0).filter { $0 != ">" } } ?? "aasa-monitor.invalid"
        return MailMessage(from: settings.from, to: [address], subject: text.subject, plain: text.plain,
                           html: text.html, messageID: "\(deliveryKey)@\(domainPart)", date: now,
                           extraHeaders: [("X-AASA-Monitor-Event", event.kind.rawValue),
                                          ("Auto-Submitted", "auto-generated")])
    }

    public func send(_ event: NotificationEvent, to address: String, deliveryKey: String, now: Date = Date()) -> DeliveryResult {
        send(message(for: event, to: address, deliveryKey: deliveryKey, now: now))
    }

    public func send(_ message: MailMessage) -> DeliveryResult {
        let pinned: (url: OutboundURL, pin: PinnedConnection)
        do {
            pinned = try serverConnection()
        } catch {
            return DeliveryResult(verdict: .retry, error: error.message)
        }
        let transfer: BlockingTransfer
        do {
            transfer = try BlockingTransfer(pinned.url, pinnedTo: pinned.pin)
            try transfer.easy.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
            try transfer.easy.set(CURLOPT_USE_SSL, Int(settings.startTLS == .required ? CURLUSESSL_ALL.rawValue : CURLUSESSL_TRY.rawValue))
            if let ca = settings.caFile { try transfer.easy.set(CURLOPT_CAINFO, ca) }
            try transfer.easy.set(CURLOPT_CONNECTTIMEOUT, min(10, settings.timeoutSeconds))
            try transfer.easy.set(CURLOPT_TIMEOUT, settings.timeoutSeconds)
            try transfer.easy.set(CURLOPT_MAIL_FROM, "<\(Self.bareAddress(message.from))>")
            try transfer.easy.set(CURLOPT_MAIL_RCPT, list: message.to.map { "<\(Self.bareAddress($0))>" })
            try transfer.setUpload(message.rendered())
        } catch {
            return DeliveryResult(verdict: .retry, error: "\(error)")
        }
        do {
            try transfer.perform()
            let code = transfer.responseCode
            return DeliveryResult(verdict: .delivered, responseCode: code == 0 ? nil : code,
                                  reply: transfer.headerLines.last)
        } catch {
            let code = transfer.responseCode
            // Every SMTP failure is retried: a 5xx for one recipient is usually a full mailbox or a
            // server hiccup, and giving up early would lose an alert; the retry horizon bounds it.
            return DeliveryResult(verdict: .retry, responseCode: code == 0 ? nil : code,
                                  reply: transfer.headerLines.last, error: "\(error)")
        }
    }

    /// The SMTP server's URL read by curl's parser, resolved and judged by the outbound policy; the
    /// refusal in words for the delivery log (never the URL itself: it may hold a password).
    func serverConnection() throws(MailServerRefusal) -> (url: OutboundURL, pin: PinnedConnection) {
        let url: OutboundURL
        do {
            url = try OutboundURL(settings.url)
        } catch {
            throw MailServerRefusal(message: "the SMTP URL is not usable: \(error.reason)")
        }
        guard url.scheme == "smtp" || url.scheme == "smtps" else {
            throw MailServerRefusal(message: "the SMTP URL must start with smtp:// or smtps://")
        }
        switch url.pin(policy: OutboundPolicy(allowPrivateAddresses: settings.allowPrivateServer), resolver: resolver) {
        case .success(let pin):
            return (url, pin)
        case .failure(.unresolvable(let why)):
            throw MailServerRefusal(message: "the SMTP server's name did not resolve: \(why)")
        case .failure(.address(let address, let range)):
            throw MailServerRefusal(message: "the SMTP server \(url.host) resolves to \(address), which is \(range); "
                + "set SMTP_ALLOW_PRIVATE=1 if the mail relay is on this machine or your network")
        }
    }

    /// "Ops <ops@example.com>" -> "ops@example.com"; libcurl wants the bare address in MAIL FROM/RCPT TO.
    static func bareAddress(_ address: String) -> String {
        if let open = address.lastIndex(of: "<"), let close = address.lastIndex(of: ">"), open < close {
            return String(address[address.index(after: open)..<close])
        }
        return address.trimmingCharacters(in: .whitespaces)
    }
}

/// Why no connection to the SMTP server was attempted, for the delivery log.
struct MailServerRefusal: Error {
    var message: String
}
