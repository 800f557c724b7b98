import Foundation
import Testing
import Vocabulary

/// `TransportFacts` is stored (`checks.transport`, every field, the body as bytes) and printed
/// (`check --json`); both codings are held here, every field set.
@Suite struct TransportFactsCodingTests {
    static let full: TransportFacts = {
        var facts = TransportFacts(
            location: .wellKnown, url: "https://a.example/.well-known/apple-app-site-association", status: 200,
            headers: ["content-type": "application/json"], body: Array("{}".utf8), decodedSize: 2, bodyTruncated: false,
            tls: TLSFacts(trusted: true, subject: "CN=a.example", subjectAltNames: ["a.example"], issuer: "CN=CA",
                          notAfter: Date(timeIntervalSince1970: 1_800_000_000)),
            failure: FetchFailure(kind: .other, message: "m"))
        facts.redirectTarget = "https://b.example/"
        facts.ipAddress = "192.0.2.1"
        facts.timings = TransportTimings(dns: 0.5, connect: 1, tls: 1.5, firstByte: 2, total: 2.5)
        facts.userAgent = "AASA-Bot/1.0"
        facts.wireSize = 30
        facts.ifNoneMatch = "\"v1\""
        facts.followedRedirects = [FollowedRedirect(url: "https://c.example/", status: 301, location: "https://a.example/.well-known/apple-app-site-association")]
        return facts
    }()

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The stored coding (as `StoredJSON` writes it) stays what rows already hold, and reads back whole.
    @Test func storedCodingKeepsEveryFieldAndTheBodyAsBytes() throws {
        let data = try Self.encoder().encode(Self.full)
        #expect(String(decoding: data, as: UTF8.self) == #"{"body":[123,125],"bodyTruncated":false,"decodedSize":2,"failure":{"kind":"other","message":"m"},"followedRedirects":[{"location":"https://a.example/.well-known/apple-app-site-association","status":301,"url":"https://c.example/"}],"headers":{"content-type":"application/json"},"ifNoneMatch":"\"v1\"","ipAddress":"192.0.2.1","location":"well-known","redirectTarget":"https://b.example/","status":200,"timings":{"connect":1,"dns":0.5,"firstByte":2,"tls":1.5,"total":2.5},"tls":{"issuer":"CN=CA","notAfter":"2027-01-15T08:00:00Z","subject":"CN=a.example","subjectAltNames":["a.example"],"trusted":true},"url":"https://a.example/.well-known/apple-app-site-association","userAgent":"AASA-Bot/1.0","wireSize":30}"#)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(TransportFacts.self, from: data) == Self.full)
    }

    /// `TransportFacts.encode(to:body:)` is written by hand: a property added later and not written
    /// there would be dropped from every stored check. Every stored property (all set in `full`) is a key.
    @Test func theHandWrittenCodingWritesEveryProperty() throws {
        let object = try JSONSerialization.jsonObject(with: try Self.encoder().encode(Self.full)) as? [String: Any]
        let properties = Set(Mirror(reflecting: Self.full).children.compactMap(\.label))
        #expect(Set(object?.keys.map { $0 } ?? []) == properties)
    }

    /// The printed coding: every field as stored, the body as text, or as base64 under `bodyBase64`
    /// (and no `body`) when it is not UTF-8.
    @Test func textCodingPrintsTheBodyAsTextOrBase64() throws {
        struct Printed: Encodable {
            var facts: TransportFacts
            func encode(to encoder: any Encoder) throws { try facts.encode(to: encoder, body: .text) }
        }
        let stored = String(decoding: try Self.encoder().encode(Self.full), as: UTF8.self)
        let printed = String(decoding: try Self.encoder().encode(Printed(facts: Self.full)), as: UTF8.self)
        #expect(printed == stored.replacingOccurrences(of: #""body":[123,125]"#, with: #""body":"{}""#))

        var binary = Self.full
        binary.body = [0xFF, 0x00]
        let object = try JSONSerialization.jsonObject(with: try Self.encoder().encode(Printed(facts: binary))) as? [String: Any]
        #expect(object?["body"] == nil)
        #expect(object?["bodyBase64"] as? String == "/wA=")
        #expect(object?["decodedSize"] as? Int == 2)
    }
}
