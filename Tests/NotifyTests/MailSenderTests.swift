import Foundation
import Notify
import Store
import Testing
import TestSupport

@Suite struct MailSenderTests {
    let links = NotificationLinks(baseURL: "https://monitor.example.test/")

    @Test func emailArrivesWithHeadersPartsSubjectAndLink() throws {
        let smtp = try TestSMTP()
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "aasa-monitor <alerts@monitor.example.test>"), links: links)
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
                                                       startTLS: .required, caFile: smtp.caFile), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-tls")
        #expect(result.verdict == .delivered, "\(result)")
        let m = try #require(smtp.waitForMessages(1).first)
        #expect(m.tls)
        #expect(m.authenticatedUser == "mailer")
    }

    @Test func opportunisticModeStillUpgradesWhenOffered() throws {
        let smtp = try TestSMTP(security: .startTLS)
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test",
                                                       startTLS: .whenOffered, caFile: smtp.caFile), links: links)
        #expect(sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-try").verdict == .delivered)
        #expect(smtp.waitForMessages(1).first?.tls == true)
    }

    @Test func wrongPasswordIsARecordedFailure() throws {
        let smtp = try TestSMTP(security: .startTLS, user: "mailer", password: "right")
        let url = smtp.url.replacingOccurrences(of: "smtp://", with: "smtp://mailer:wrong@")
        let sender = MailSender(settings: MailSettings(url: url, from: "alerts@monitor.example.test",
                                                       caFile: smtp.caFile), links: links)
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
                                                       caFile: smtp.caFile), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-smtps")
        #expect(result.verdict == .delivered, "\(result)")
        #expect(smtp.waitForMessages(1).first?.tls == true)
    }

    @Test func untrustedCertificateIsRefused() throws {
        let smtp = try TestSMTP(security: .startTLS)
        // No CA given: the system store does not know the test CA, so STARTTLS must fail closed.
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test",
                                                       startTLS: .required), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-untrusted")
        #expect(result.verdict == .retry)
        #expect(smtp.messages().isEmpty)
    }

    @Test func requiredTLSRefusesAServerWithoutSTARTTLS() throws {
        let smtp = try TestSMTP(security: .plain)
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test",
                                                       startTLS: .required), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-notls")
        #expect(result.verdict == .retry)
        #expect(smtp.messages().isEmpty)
    }

    @Test func serverDownIsARetryWithCurlsWords() throws {
        let smtp = try TestSMTP()
        smtp.stop()
        let sender = MailSender(settings: MailSettings(url: smtp.url, from: "alerts@monitor.example.test"), links: links)
        let result = sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-down")
        #expect(result.verdict == .retry)
        #expect(result.responseCode == nil)
        #expect(result.error?.contains("curl error 7") == true, "\(result)")
        try smtp.start()
        #expect(sender.send(SampleEvents.broken(), to: "ops@example.test", deliveryKey: "d-down").verdict == .delivered)
    }

    @Test func passwordIsRedactedForLogs() {
        let s = MailSettings(url: "smtp://mailer:hunter2@mail.example.test:587", from: "a@b.test")
        #expect(s.redactedURL == "smtp://mailer:***@mail.example.test:587")
        #expect(!s.redactedURL.contains("hunter2"))
    }
}
