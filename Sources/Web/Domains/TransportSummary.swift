import Foundation

/// Reads the per-location transport facts a check stored (JSON written by the check pipeline) for
/// display. Lenient on purpose: it accepts an object keyed by location or an array of locations and
/// ignores anything it does not know, so the page keeps working as the stored shape grows.
struct TransportSummary {
    struct Location {
        var key: String
        var url: String?
        var status: Int?
        var contentType: String?
        var size: Int?
        var issuer: String?
        var notAfter: Date?
        var totalMilliseconds: Double?
        /// The fetcher's phases (DNS, connect, TLS, first byte), each in ms from the request's start.
        var phaseMilliseconds: [(name: String, milliseconds: Double)] = []
        var failure: String?
    }

    var locations: [Location] = []

    init(json: String) {
        guard let data = json.data(using: .utf8), let value = try? JSONSerialization.jsonObject(with: data) else { return }
        var objects: [(String, [String: Any])] = []
        if let dict = value as? [String: Any] {
            for key in ["wellKnown", "well-known", "root", "cdn"] {
                if let o = dict[key] as? [String: Any] { objects.append((key, o)) }
            }
            if let list = dict["locations"] as? [[String: Any]] {
                objects += list.map { (($0["location"] as? String) ?? "", $0) }
            }
        } else if let list = value as? [[String: Any]] {
            objects = list.map { (($0["location"] as? String) ?? "", $0) }
        }
        locations = objects.map { key, o in
            let headers = o["headers"] as? [String: Any]
            let tls = o["tls"] as? [String: Any]
            let failure = o["failure"] as? [String: Any]
            let timings = o["timings"] as? [String: Any]
            return Location(
                key: key == "well-known" ? "wellKnown" : key,
                url: o["url"] as? String,
                status: (o["status"] as? NSNumber)?.intValue,
                contentType: headers?["content-type"] as? String,
                size: (o["decodedSize"] as? NSNumber)?.intValue ?? (o["size"] as? NSNumber)?.intValue,
                issuer: tls?["issuer"] as? String,
                notAfter: TransportSummary.date(tls?["notAfter"]),
                // The pipeline stores TransportTimings in seconds (curl's unit).
                totalMilliseconds: (timings?["total"] as? NSNumber).map { $0.doubleValue * 1000 }
                    ?? (timings?["totalMilliseconds"] as? NSNumber)?.doubleValue
                    ?? (o["totalMilliseconds"] as? NSNumber)?.doubleValue,
                phaseMilliseconds: [("DNS", "dns"), ("connect", "connect"), ("TLS", "tls"), ("first byte", "firstByte")].compactMap { name, field in
                    (timings?[field] as? NSNumber).map { (name, $0.doubleValue * 1000) }
                },
                failure: failure.map { f in [(f["kind"] as? String), (f["message"] as? String)].compactMap { $0 }.joined(separator: ": ") })
        }
    }

    /// ISO 8601 text, or seconds since 2001 (Foundation's default Date encoding), or since 1970.
    static func date(_ value: Any?) -> Date? {
        if let s = value as? String {
            if let d = InternetDateTime.date(s) { return d }
            let f = ISO8601DateFormatter()
            if let d = f.date(from: s) { return d }
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return f.date(from: s)
        }
        if let n = value as? NSNumber {
            let v = n.doubleValue
            return v > 1_000_000_000 ? Date(timeIntervalSince1970: v) : Date(timeIntervalSinceReferenceDate: v)
        }
        return nil
    }

    static func title(_ key: String) -> String {
        switch key {
        case "wellKnown": "Origin: /.well-known/apple-app-site-association"
        case "root": "Origin: /apple-app-site-association (legacy)"
        case "cdn": "Apple CDN (what devices download)"
        default: key
        }
    }
}
