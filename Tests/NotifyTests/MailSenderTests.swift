import Foundation
import Notify
import Outbound
import Store
import Synchronization
import Testing
import TestSupport

@Suite struct MailSenderTests {
    let links = NotificationLinks(baseURL: "https://monitor.example.test/")

    @Test func emailArrivesWithHeadersPartsSubjectAndLink() throws {
        let smtp = try TestSMTP()
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "aasa-monitor <alerts@monitor.example.test>", allowPrivateServer: true), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-1234")
        #expect(result.verdict == .delivered, "\(result)")
        #expect(result.responseCode == 250)
        #expect(result.reply?.contains("queued by the test SMTP server") == true)

        let messages = smtp.waitForMessages(1)
        try #require(messages.count == 1)
        let m = messages[0]
        #expect(m.mailFrom == "alerts@monitor.example.test")
        #expect(m.recipients == ["ops@example.test"])
        let mime = try ParsedMail(m.data)
        #expect(mime.header("Message-ID") == "<d-1234@monitor.example.test>")
        #expect(mime.header("From") == "aasa-monitor <alerts@monitor.example.test>")
        #expect(mime.header("To") == "ops@example.test")
        #expect(mime.header("MIME-Version") == "1.0")
        let date = try #require(mime.header("Date"))
        #expect(ParsedMail.parseRFC5322Date(date) != nil, "Date header \(date) is not RFC 5322")
        let subject = try #require(mime.decodedSubject)
        #expect(subject.contains("FAILING"))
        #expect(subject.contains("bücher.example"))
        #expect(subject.contains("unreachable"))
        #expect(mime.header("Content-Type")?.hasPrefix("multipart/alternative") == true)
        let plain = try #require(mime.part("text/plain"))
        let html = try #require(mime.part("text/html"))
        #expect(plain.contains("https://monitor.example.test/domains/xn--bcher-kva.example"))
        #expect(plain.contains("http-status"))
        #expect(plain.contains("/shop/* no longer opens"))
        #expect(html.contains("href=\"https://monitor.example.test/domains/xn--bcher-kva.example\""))
        // Values from the outside world are escaped in HTML.
        #expect(html.contains("unreachable &lt;script&gt;"))
        #expect(!html.contains("<script>"))
        #expect(html.contains("503 &lt;b&gt;."))
        #expect(html.contains("got no answer &amp; devices"))
    }

    @Test func startTLSIsUsedWhenOfferedAndAuthenticates() throws {
        let smtp = try TestSMTP(security: .startTLS, user: "mailer", password: "s3cret p@ss")
        let url = smtp.url.replacingOccurrences(of: "smtp://", with: "smtp://mailer:s3cret%20p%40ss@")
        let sender = MailSender(settings: MailSettings(url: url, from: "alerts@monitor.example.test",
                                                       startTLS: .required, caFile: smtp.caFile, allowPrivateServer: true), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-tls")
        #expect(result.verdict == .delivered, "\(result)")
        let m = try #require(smtp.waitForMessages(1).first)
        #expect(m.tls)
        #expect(m.authenticatedUser == "mailer")
    }

    @Test func opportunisticModeStillUpgradesWhenOffered() throws {
        let smtp = try TestSMTP(security: .startTLS)
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test",
                                                       startTLS: .whenOffered, caFile: smtp.caFile, allowPrivateServer: true), links: links)
        #expect(sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-try").verdict == .delivered)
        #expect(smtp.waitForMessages(1).first?.tls == true)
    }

    @Test func wrongPasswordIsARecordedFailure() throws {
        let smtp = try TestSMTP(security: .startTLS, user: "mailer", password: "right")
        let url = smtp.url.replacingOccurrences(of: "smtp://", with: "smtp://mailer:wrong@")
        let sender = MailSender(settings: MailSettings(url: url, from: "alerts@monitor.example.test",
                                                       caFile: smtp.caFile, allowPrivateServer: true), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-auth")
        #expect(result.verdict == .retry)
        #expect(result.responseCode == 535)
        #expect(result.error?.isEmpty == false)
        #expect(smtp.messages().isEmpty)
    }

    @Test func implicitTLSWithSMTPS() throws {
        let smtp = try TestSMTP(security: .implicitTLS)
        #expect(smtp.url.hasPrefix("smtps://"))
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test",
                                                       caFile: smtp.caFile, allowPrivateServer: true), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-smtps")
        #expect(result.verdict == .delivered, "\(result)")
        #expect(smtp.waitForMessages(1).first?.tls == true)
    }

    @Test func untrustedCertificateIsRefused() throws {
        let smtp = try TestSMTP(security: .startTLS)
        // No CA given: the system store does not know the test CA, so STARTTLS must fail closed.
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test",
                                                       startTLS: .required, allowPrivateServer: true), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-untrusted")
        #expect(result.verdict == .retry)
        #expect(smtp.messages().isEmpty)
    }

    @Test func requiredTLSRefusesAServerWithoutSTARTTLS() throws {
        let smtp = try TestSMTP(security: .plain)
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test",
                                                       startTLS: .required, allowPrivateServer: true), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-notls")
        #expect(result.verdict == .retry)
        #expect(smtp.messages().isEmpty)
    }

    @Test func serverDownIsARetryWithCurlsWords() throws {
        let smtp = try TestSMTP()
        smtp.stop()
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test", allowPrivateServer: true), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-down")
        #expect(result.verdict == .retry)
        #expect(result.responseCode == nil)
        #expect(result.error?.contains("curl error 7") == true, "\(result)")
        try smtp.start()
        #expect(sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-down").verdict == .delivered)
    }

    /// The SMTP server is under the outbound policy: a server on this machine or the LAN is refused
    /// unless the admin allowed it explicitly.
    @Test func privateServerIsRefusedUnlessAllowed() throws {
        let smtp = try TestSMTP()
        let strict = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test"), links: links)
        let refused = strict.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-private")
        #expect(refused.verdict == .retry)
        #expect(refused.error?.contains("127.0.0.1, which is loopback") == true, "\(refused)")
        #expect(refused.error?.contains("SMTP_ALLOW_PRIVATE=1") == true)
        #expect(smtp.messages().isEmpty)

        let base = ["SMTP_URL": smtp.url, "SMTP_FROM": "alerts@monitor.example.test"]
        #expect(MailSettings.fromEnvironment(base)?.allowPrivateServer == false)
        #expect(MailSettings.fromEnvironment(base.merging(["SMTP_ALLOW_PRIVATE": "1"]) { $1 })?.allowPrivateServer == true)
        #expect(MailSettings.fromEnvironment(base.merging(["AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS": "1"]) { $1 })?.allowPrivateServer == true)
        let allowed = try #require(MailSettings.fromEnvironment(base.merging(["SMTP_ALLOW_PRIVATE": "1"]) { $1 }))
        #expect(MailSender(settings: allowed, links: links).send(SampleEvents.broken(), to: "ops@example.test",
                                                                 deliveryKey: "d-private").verdict == .delivered)
        #expect(smtp.waitForMessages(1).count == 1)
    }

    /// The server's name is resolved once, by our resolver, in the ASCII form curl connects with, and
    /// the connection is pinned to that answer: curl could not resolve this name by itself.
    @Test func serverConnectionIsPinnedToTheJudgedAddress() throws {
        final class Resolver: HostResolver {
            let asked = Mutex<[String]>([])
            func resolve(_ name: String) -> Result<[IPAddress], ResolveError> {
                asked.withLock { $0.append(name) }
                return .success([.v4(0x7F00_0001)])
            }
        }
        let smtp = try TestSMTP()
        let resolver = Resolver()
        let url = "smtp://mäil.smtp.invalid:\(smtp.port)"
        let sender = MailSender(settings: MailSettings(url: url, from: "alerts@monitor.example.test", allowPrivateServer: true),
                                links: links, resolver: resolver)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-pin")
        #expect(result.verdict == .delivered, "\(result)")
        #expect(resolver.asked.withLock { $0 } == ["xn--mil-qla.smtp.invalid"])
    }

    @Test func passwordIsRedactedForLogs() {
        let s = MailSettings(url: "smtp://mailer:hunter2@mail.example.test:587", from: "a@b.test")
        #expect(s.redactedURL == "smtp://mailer:***@mail.example.test:587")
        #expect(!s.redactedURL.contains("hunter2"))
    }
}
