// libFuzzer target for the AASA reader: the CMS (signed file) unwrapper, the parser, the validator
// and what runs on every parsed document (check evaluation, diff, explain). Built by scripts/fuzz
// against the Vocabulary, LocatedJSON and AASA modules compiled from source (AASA with testing
// enabled, so the unwrapper can be called directly).
//
// Each input is read twice: as the body of a response, and wrapped by this target into a CMS
// SignedData message (definite DER lengths, or BER with indefinite lengths and a chunked
// content, as `openssl cms -stream` writes). Checked beyond "does not crash":
// - the unwrapper gives back exactly the wrapped bytes, and the signed file reads as the same
//   document with the same findings plus the signing deprecation;
// - every finding's location lies inside the input;
// - a document diffed against itself behaves the same on its own sample URLs, and `explain`
//   decides as `decide` does.

import Foundation
import Vocabulary
@testable import AASA

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAASAParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let report = AASAValidator.validate(bytes)
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    for finding in report.findings {
        if let line = finding.location?.line, let column = finding.location?.column {
            check(line >= 1 && line <= lines && column >= 1 && column <= size + 1,
                  "\(finding.code) at \(line):\(column) outside \(lines) lines / \(size) bytes")
        }
    }

    // The check a monitor runs on a body served at both origin locations.
    let wellKnown = TransportFacts(location: .wellKnown, url: "https://example.com/.well-known/apple-app-site-association",
                                   status: 200, headers: ["content-type": "application/json"], body: bytes)
    var root = wellKnown
    root.location = .root
    root.url = "https://example.com/apple-app-site-association"
    let checked = CheckEvaluation.evaluate(wellKnown: wellKnown, root: root, cdn: nil)
    check(checked.document == report.document, "the check reads another document than the validator")
    check(!checked.findings.contains { $0.code == "locations-disagree" }, "one body disagrees with itself")

    if let document = report.document { checkDocument(document) }
    checkSigned(bytes, plain: AASAParser.parse(bytes))
    return 0
}

/// A document's own patterns, turned into URLs, decide the same everywhere they are decided.
private func checkDocument(_ document: AASADocument) {
    let compiled = CompiledDocument(document)
    var urls = ["https://example.com/", "https://example.com/a?b=c#d"]
    for entry in (document.applinks?.details ?? []).prefix(4) {
        for rule in entry.rules.prefix(4) {
            let settings = rule.settings
            var url = "https://example.com/" + sample(settings.path ?? "")
            if case .string(let query) = settings.query { url += "?" + sample(query) }
            if case .items(let items) = settings.query {
                url += "?" + items.prefix(3).map { sample($0.name) + "=" + sample($0.pattern) }.joined(separator: "&")
            }
            if let fragment = settings.fragment { url += "#" + sample(fragment) }
            urls.append(url)
        }
    }
    let diff = AASADiff.diff(old: document, new: document, urls: urls)
    check(diff.isBehaviourallyEqual, "a document differs from itself: \(diff)")
    for url in urls {
        for app in compiled.appIDs.prefix(4) {
            let decision = compiled.decide(url: url, appID: app)
            check(compiled.explain(url: url, appID: app).decision == decision, "explain disagrees on \(url) for \(app)")
            check(compiled.decide(parts: URLParts(parsing: url), appID: app) == decision,
                  "the byte path disagrees on \(url) for \(app)")
        }
    }
}

/// A URL piece a pattern plausibly matches: wildcards become letters, and a bounded length keeps
/// the target fast on long patterns.
private func sample(_ pattern: String) -> String {
    String(pattern.prefix(64).map { $0 == "*" ? "x" : $0 == "?" ? "y" : $0 })
}

/// The unwrapper returns exactly what was signed, and the signed file reads like the plain one.
private func checkSigned(_ bytes: [UInt8], plain: ParseResult) {
    // A body that already starts like DER is unwrapped once, not twice: nothing to compare.
    guard bytes.first != 0x30 else { return }
    let signed = bytes.count % 2 == 0 ? CMS.definite(bytes) : CMS.indefinite(bytes, chunk: 1 + bytes.count % 13)
    check(SignedDataUnwrapper.unwrap(signed) == .content(bytes), "the unwrapper changed the content")
    let result = AASAParser.parse(signed)
    var expected = plain.document
    expected?.wasSigned = true
    check(result.document == expected, "the signed file reads as another document")
    let deprecation = FindingDefinition.signedFileDeprecated.code
    check(result.findings.first?.code == deprecation, "no signing deprecation first")
    // The cap on findings counts the deprecation too, so compare only below it.
    if plain.findings.count < 900 {
        check(Array(result.findings.dropFirst()) == plain.findings, "the signed file has other findings")
    }
}

/// Minimal CMS SignedData messages with attached content (RFC 5652), no signer: all the unwrapper reads.
private enum CMS {
    static let signedData: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let data: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    static let version: [UInt8] = [0x02, 0x01, 0x01]
    static let emptySet: [UInt8] = [0x31, 0x00]

    static func definite(_ content: [UInt8]) -> [UInt8] {
        let encapsulated = tlv(0x30, data + tlv(0xA0, tlv(0x04, content)))
        return tlv(0x30, signedData + tlv(0xA0, tlv(0x30, version + emptySet + encapsulated + emptySet)))
    }

    /// BER as `openssl cms -stream` writes it: indefinite lengths, the content in OCTET STRING chunks.
    static func indefinite(_ content: [UInt8], chunk: Int) -> [UInt8] {
        var chunks: [UInt8] = []
        var start = 0
        while start < content.count {
            let end = min(content.count, start + chunk)
            chunks += tlv(0x04, Array(content[start..<end]))
            start = end
        }
        let encapsulated = open(0x30, data + open(0xA0, open(0x24, chunks)))
        return open(0x30, signedData + open(0xA0, open(0x30, version + emptySet + encapsulated + emptySet)))
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        var n = content.count
        if n < 0x80 {
            length = [UInt8(n)]
        } else {
            while n > 0 { length.insert(UInt8(n & 0xFF), at: 0); n >>= 8 }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + content
    }

    static func open(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag, 0x80] + content + [0, 0] }
}

/// A failed check is a crash, which is what libFuzzer records as a finding (with the input).
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}
