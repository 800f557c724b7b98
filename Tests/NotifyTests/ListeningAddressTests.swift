import Testing
@testable import Notify

/// The links' fallback when no dashboard address is set: where `serve` is bound, opened from this machine.
@Suite struct ListeningAddressTests {
    @Test func aBoundAddressIsTheLinksBase() {
        let listening = ListeningAddress()
        #expect(listening.baseURL == nil)
        listening.bound(host: "127.0.0.1", port: 9191)
        #expect(listening.baseURL == "http://127.0.0.1:9191")
        #expect(ListeningAddress.baseURL(host: "0.0.0.0", port: 80) == "http://127.0.0.1:80")
        #expect(ListeningAddress.baseURL(host: "::", port: 8081) == "http://[::1]:8081")
        #expect(ListeningAddress.baseURL(host: "fd00::5", port: 8081) == "http://[fd00::5]:8081")
        #expect(ListeningAddress.baseURL(host: "monitor.internal", port: 8443) == "http://monitor.internal:8443")
    }
}
