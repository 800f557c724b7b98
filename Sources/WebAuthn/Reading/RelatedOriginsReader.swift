import LocatedJSON
import Vocabulary

/// One string of the `origins` array, where it was written.
public struct OriginEntry: Hashable, Sendable {
    /// The index in `origins` (non-strings count too, so it is the index a person sees).
    public var index: Int
    public var text: String
    public var location: SourceLocation

    public init(index: Int, text: String, location: SourceLocation) {
        self.index = index
        self.text = text
        self.location = location
    }
}

/// What a browser makes of one `/.well-known/webauthn` body, before any caller is judged.
public struct RelatedOriginsReading: Sendable {
    /// The strings of `origins` in file order; empty when there is no usable `origins` array.
    public var entries: [OriginEntry]
    /// Why a browser refuses the whole file (too large, not strict JSON, not an object, no `origins`
    /// array, a non-string element), in words; nil when it reads the entries.
    public var rejection: String?
    /// Where `origins` is (the root when it is missing), for findings about the whole list.
    public var originsLocation: SourceLocation
    public var findings: [Finding]
}

/// Reads `/.well-known/webauthn` as WebAuthn's related-origins procedure does (passkeys-spec.md §3.1):
/// strict JSON, a top-level object, an `origins` array of strings; other members are ignored.
/// Never throws and never traps on any input; every finding has a JSON pointer and line:column.
public enum RelatedOriginsReader {
    /// Chromium's cap on the body (2^18 bytes); a larger body fails the fetch (§2, CR-RV).
    /// [uncertain] §7.2: Safari's cap is unpublished; Chromium's is applied to every browser.
    public static let sizeLimit = 262_144
    static let originsKey = "origins"

    /// Whether `bytes` are a related-origins file by content: a JSON object with an `origins` member
    /// and none of apple-app-site-association's services (`validate` asks it of a file named neither way).
    public static func isRelatedOrigins(_ bytes: [UInt8]) -> Bool {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let root = JSONReader.read(SourceText(bytes: bytes), from: start, kinds: .webauthn).value,
              case .object = root.kind, root.member(originsKey) != nil else { return false }
        return !["applinks", "webcredentials", "appclips", "activitycontinuation"].contains { root.member($0) != nil }
    }

    public static func read(_ bytes: [UInt8]) -> RelatedOriginsReading {
        let source = SourceText(bytes: bytes)
        var findings = FindingCollector(truncation: WebAuthnFinding.findingsTruncated)
        let rootLocation = SourceLocation(pointer: "", line: 1, column: 1)
        var reading = RelatedOriginsReading(entries: [], rejection: nil, originsLocation: rootLocation, findings: [])
        func reject(_ reason: String) { if reading.rejection == nil { reading.rejection = reason } }
        if bytes.count > sizeLimit {
            findings.add(WebAuthnFinding.tooLarge.finding(at: nil,
                "The file is \(bytes.count) bytes; Chromium reads at most \(sizeLimit) bytes (256 KiB) and otherwise fails the fetch.",
                hint: "Trim the file: list only the origins that use this RP ID."))
            reject("the body is larger than \(sizeLimit) bytes")
        }
        var start = 0
        // [uncertain] W8: a UTF-8 BOM. RFC 8259 lets parsers skip it and Chromium's JSON parser does;
        // we read past it too and warn, since other clients are unverified.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            start = 3
            findings.add(WebAuthnFinding.utf8BOM.finding(at: rootLocation,
                "The file starts with a UTF-8 byte-order mark; strict JSON parsers may refuse it.",
                hint: "Save the file as UTF-8 without BOM."))
        }
        if bytes[start...].first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") {
            findings.add(WebAuthnFinding.bodyHTML.finding(at: rootLocation,
                "The body is HTML, not JSON: the server answers this path with a web page (often a single-page app's catch-all route).",
                hint: "Serve the file itself at /.well-known/webauthn, with Content-Type: application/json."))
            reading.rejection = reading.rejection ?? "the body is an HTML page"
            reading.findings = findings.finish()
            return reading
        }
        let parsed = JSONReader.read(source, from: start, kinds: .webauthn)
        findings.add(contentsOf: parsed.findings.finish())
        // Browsers parse strictly: a syntax error the forgiving reader stepped over still rejects the file.
        if parsed.failed || parsed.findings.findings.contains(where: { $0.code == WebAuthnFinding.invalidJSON.code }) {
            reject("the body is not strict JSON")
        }
        guard let root = parsed.value else {
            reading.findings = findings.finish()
            return reading
        }
        readRoot(root, source: source, into: &reading, findings: &findings)
        reading.findings = findings.finish()
        return reading
    }

    private static func readRoot(_ root: JSONValue, source: SourceText, into reading: inout RelatedOriginsReading,
                                 findings: inout FindingCollector) {
        func reject(_ reason: String) { reading.rejection = reading.rejection ?? reason }
        guard case .object(let members) = root.kind else {
            findings.add(WebAuthnFinding.notObject.finding(at: source.location("", root.position),
                "The file is \(root.typeDescription), but /.well-known/webauthn must be a JSON object with an \"origins\" array; browsers reject it.",
                hint: "Write {\"origins\": [\"https://shop.example\"]}."))
            reject("the top level is not a JSON object")
            return
        }
        var reportedUnknown = Set<String>()
        for member in members where member.key != originsKey && reportedUnknown.insert(member.key).inserted {
            let near = KeySuggestion.nearest(to: member.key, among: [originsKey])
            findings.add(WebAuthnFinding.unknownKey.finding(at: source.location("/" + JSONPath.escape(member.key), member.keyPosition),
                "The member \"\(member.key)\" is not part of the format; browsers ignore it."
                    + (near.map { " Did you mean \"\($0)\"?" } ?? ""),
                hint: near.map { "Rename it to \"\($0)\"." } ?? "Remove it, or leave it: it does no harm."))
        }
        // [uncertain] W7: with `origins` twice, the last one counts, as in Chromium's and most parsers
        // (the JSON reader reports webauthn-duplicate-key).
        guard let origins = root.member(originsKey) else {
            let near = members.lazy.compactMap { member in
                KeySuggestion.nearest(to: member.key, among: [originsKey]) != nil ? member.key : nil
            }.first
            findings.add(WebAuthnFinding.originsMissing.finding(at: source.location("", root.position),
                "The object has no \"origins\" member" + (near.map { " (\"\($0)\" is close: the name is case-sensitive)" } ?? "")
                    + "; browsers reject the file.",
                hint: near.map { "Rename \"\($0)\" to \"origins\"." } ?? "Add \"origins\": [\"https://shop.example\"]."))
            reject("there is no \"origins\" member")
            return
        }
        let pointer = "/" + originsKey
        reading.originsLocation = source.location(pointer, origins.value.position)
        guard case .array(let elements) = origins.value.kind else {
            findings.add(WebAuthnFinding.originsNotArray.finding(at: reading.originsLocation,
                "\"origins\" is \(origins.value.typeDescription), but it must be an array of origin strings; browsers reject the file.",
                hint: "Wrap the value in [ ], e.g. \"origins\": [\"https://shop.example\"]."))
            reject("\"origins\" is not an array")
            return
        }
        if elements.isEmpty {
            findings.add(WebAuthnFinding.originsEmpty.finding(at: reading.originsLocation,
                "\"origins\" is empty: the file relates no origin to this RP ID.",
                hint: "List the origins that use this RP ID, e.g. \"https://shop.example\"."))
        }
        for (index, element) in elements.enumerated() {
            let location = source.location(pointer + "/\(index)", element.position)
            guard let text = element.stringValue else {
                findings.add(WebAuthnFinding.originNotString.finding(at: location,
                    "Element \(index) of \"origins\" is \(element.typeDescription), not a string; WebAuthn rejects the whole file "
                        + "(Chromium notices it only when no earlier entry matched the caller).",
                    hint: "Remove it, or write the origin as a string such as \"https://shop.example\"."))
                reject("element \(index) of \"origins\" is not a string")
                continue
            }
            reading.entries.append(OriginEntry(index: index, text: text, location: location))
        }
    }
}
