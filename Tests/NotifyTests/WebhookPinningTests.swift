import Outbound
import Foundation
import Notify
import Synchronization
import Testing
import TestSupport

/// The webhook sender connects to the address its policy judged, whatever form the URL's host takes
/// (issue #16, finding 2: an `xn--` host was resolved in its Unicode form, the pin was keyed by that
/// name, and curl — which uses the punycode name — resolved again and went elsewhere).
@Suite struct WebhookPinningTests {
    /// Answers every name with 127.0.0.2 and records which names it was asked.
    final class FixedResolver: HostResolver {
        let asked = Mutex<[String]>([])
        func resolve(_ name: String) -> Result<[IPAddress], ResolveError> {
            asked.withLock { $0.append(name) }
            return .success([.v4(0x7F00_0002)])
        }
    }

    @Test func idnHostArrivesAtTheJudgedAddress() throws {
        // Two receivers on one port: the judged address (127.0.0.2) and the one curl would reach on its
        // own — curl resolves every `*.localhost` name to 127.0.0.1 itself, without asking anyone.
        let judged = try TestWebhookReceiver(host: "127.0.0.2")
        let elsewhere = try TestWebhookReceiver(host: "127.0.0.1", port: judged.port)
        let resolver = FixedResolver()
        let sender = WebhookSender(policy: WebhookAddressPolicy(allowPrivateAddresses: true, resolver: resolver),
                                   links: NotificationLinks(baseURL: "https://monitor.example.test"))
        for url in ["http://xn--bcher-kva.localhost:\(judged.port)/hook", "http://bücher.localhost:\(judged.port)/hook"] {
            let result = sender.send(SampleEvents.broken(), url: url, format: .event, secret: nil, messageID: "m-idn")
            #expect(result.verdict == .delivered, "\(url): \(result)")
        }
        #expect(judged.waitForRequests(2).count == 2)
        // Each send has returned, so anything that reached the other address is already recorded.
        #expect(elsewhere.requests().isEmpty)
        // The name judged is the name curl connects with: the ASCII form, for both spellings.
        #expect(resolver.asked.withLock { $0 } == ["xn--bcher-kva.localhost", "xn--bcher-kva.localhost"])
    }
}
