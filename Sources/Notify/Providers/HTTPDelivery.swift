import CCurl
import Foundation
import Outbound

/// POSTs one body under the webhook address policy: the URL read by curl's parser, its host resolved
/// and judged, the connection pinned to the judged addresses, no redirect followed. Blocking: call it
/// from a worker thread. Never throws: a refusal or a transport failure is an `Exchange` too.
struct HTTPDelivery: Sendable {
    var policy: WebhookAddressPolicy
    var timeoutSeconds: Int

    enum Exchange: Sendable, Equatable {
        /// The policy refused the URL or its addresses; nothing was sent.
        case notSent(String)
        /// Sent, or tried to, but no HTTP answer arrived (connection refused, timeout, TLS).
        case failed(String)
        /// Header names lower-cased; the body capped at 4 KiB.
        case answered(status: Int, headers: [String: String], body: [UInt8])
    }

    func post(url: String, headers: [(String, String)], body: [UInt8]) -> Exchange {
        let target: (url: OutboundURL, pin: PinnedConnection)
        do {
            target = try policy.target(for: url)
        } catch {
            return .notSent(error.description)
        }
        let transfer: BlockingTransfer
        do {
            transfer = try BlockingTransfer(target.url, pinnedTo: target.pin, responseLimit: 4096)
            try transfer.easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
            // A redirect could point anywhere, including this machine: never follow one.
            try transfer.easy.set(CURLOPT_FOLLOWLOCATION, 0)
            try transfer.easy.set(CURLOPT_CONNECTTIMEOUT, min(5, timeoutSeconds))
            try transfer.easy.set(CURLOPT_TIMEOUT, timeoutSeconds)
            try transfer.easy.set(CURLOPT_HTTPHEADER, list: headers.map { "\($0.0): \($0.1)" } + ["Expect:"])
            try transfer.setPostBody(body)
        } catch {
            return .failed("\(error)")
        }
        do {
            try transfer.perform()
        } catch {
            return .failed("\(error)")
        }
        return .answered(status: transfer.responseCode, headers: Self.headers(transfer.headerLines), body: transfer.responseBody)
    }

    /// "Retry-After: 5" → ["retry-after": "5"]; the status line and folded lines are skipped.
    static func headers(_ lines: [String]) -> [String: String] {
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("HTTP/") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }
}

/// How a provider's HTTP answer becomes the outbox's verdict. Pure, and the same for every provider:
/// 2xx delivered; 429 (and 408, 425) retried after the provider's Retry-After; 410 gone (the channel is
/// disabled); any other 4xx refused — the provider will not take this message however often it is
/// sent, so the delivery gives up at once with the provider's own words; 5xx and the rest retried.
struct ProviderAnswer: Sendable {
    /// "PagerDuty"
    var provider: String
    /// JSON paths of the provider's error text in a refusal ("message", "error.message", …).
    var messagePaths: [[String]]
    /// JSON paths of a retry delay in seconds in the body (Discord's retry_after, Telegram's).
    var retryAfterPaths: [[String]] = []

    func result(of exchange: HTTPDelivery.Exchange, now: Date = Date()) -> DeliveryResult {
        switch exchange {
        case .notSent(let why):
            return DeliveryResult(verdict: .retry, error: why)
        case .failed(let why):
            return DeliveryResult(verdict: .retry, error: why)
        case .answered(let status, let headers, let body):
            return result(status: status, headers: headers, body: body, now: now)
        }
    }

    func result(status: Int, headers: [String: String], body: [UInt8], now: Date = Date()) -> DeliveryResult {
        let text = String(decoding: body.prefix(300), as: UTF8.self)
        let reply = text.isEmpty ? nil : text
        if (200..<300).contains(status) {
            return DeliveryResult(verdict: .delivered, responseCode: status, reply: reply)
        }
        let said = ProviderJSON.string(in: body, at: messagePaths) ?? reply.map { ProviderJSON.cut($0, 200) }
        let words = said.map { ": \($0)" } ?? ""
        switch status {
        case 429, 408, 425:
            let wait = Self.retryAfter(headers["retry-after"], now: now)
                ?? ProviderJSON.string(in: body, at: retryAfterPaths).flatMap(Double.init)
            let when = wait.map { "; trying again after \(Self.seconds($0)) s as it asked" } ?? ""
            return DeliveryResult(verdict: .retry, responseCode: status, reply: reply,
                                  error: "\(provider) is rate limiting (HTTP \(status))\(words)\(when)", retryAfterSeconds: wait)
        case 410:
            return DeliveryResult(verdict: .gone, responseCode: status, reply: reply, error: "HTTP 410")
        case 400..<500:
            return DeliveryResult(verdict: .refused, responseCode: status, reply: reply,
                                  error: "\(provider) refused the message (HTTP \(status))\(words)")
        default:
            return DeliveryResult(verdict: .retry, responseCode: status, reply: reply, error: "HTTP \(status)\(words)")
        }
    }

    /// Retry-After in seconds: a number of seconds, or an HTTP date (RFC 9110 §10.2.3). Nil when absent
    /// or unreadable; never negative.
    static func retryAfter(_ value: String?, now: Date) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds.isFinite { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
