import LocatedJSON
import Vocabulary

/// What the parser made of a body: the document as a device would read it (nil when the bytes are
/// not a usable JSON object) and everything it noticed while reading — syntax, encoding, structure,
/// types and per-value mistakes, each with a JSON pointer and line:column.
public struct ParseResult: Sendable {
    public var document: AASADocument?
    public var findings: [Finding]
}

/// Reads apple-app-site-association bytes: plain JSON, JSON with a UTF-8 BOM, or a CMS SignedData
/// message with the JSON attached.
///
/// Never throws or traps for malformed input, whatever the bytes; work and memory are linear in
/// the input, nesting is capped, and the number of findings is capped.
public enum AASAParser {
    /// Bodies above this are not read at all (Apple's limit is 128 KB; this only bounds our own work).
    public static let readLimit = 32 << 20

    public static func parse(_ bytes: [UInt8]) -> ParseResult {
        var findings = FindingCollector(truncation: .findingsTruncated)
        guard bytes.count <= readLimit else {
            findings.add(FindingDefinition.sizeOver128k.finding(at: nil,
                "The body is \(bytes.count) bytes, far above Apple's 128 KB limit; it was not read.",
                hint: "Serve a file under 128 KB."))
            return ParseResult(document: nil, findings: findings.finish())
        }
        var json = bytes
        var wasSigned = false
        switch SignedDataUnwrapper.unwrap(bytes) {
        case .notSigned:
            break
        case .content(let content):
            wasSigned = true
            json = content
            findings.add(FindingDefinition.signedFileDeprecated.finding(at: SourceLocation(pointer: ""),
                "The file is a CMS/PKCS#7 signed message. The JSON inside was extracted and checked, but the signature was NOT verified. Signing has not been needed since iOS 9 and Apple deprecated it in 2019.",
                hint: "Serve the plain JSON as application/json instead of the signed file."))
        case .unreadable(let reason):
            findings.add(FindingDefinition.signedContentUnreadable.finding(at: SourceLocation(pointer: ""),
                reason + " No JSON could be read.",
                hint: "Serve the plain JSON file (it starts with {), as application/json."))
            return ParseResult(document: nil, findings: findings.finish())
        }
        var start = 0
        if json.count >= 3 && json[0] == 0xEF && json[1] == 0xBB && json[2] == 0xBF {
            start = 3
            findings.add(FindingDefinition.utf8BOM.finding(at: SourceLocation(pointer: "", line: 1, column: 1),
                "The body starts with a UTF-8 byte-order mark (EF BB BF), which JSON does not allow; whether Apple's parser tolerates it is not documented.",
                hint: "Save the file as UTF-8 without BOM."))
        }
        let source = SourceText(bytes: json)
        let (root, jsonFindings, failed) = JSONReader.read(source, from: start, kinds: .aasa)
        findings.add(contentsOf: jsonFindings.finish())
        guard let root, !failed else {
            return ParseResult(document: nil, findings: findings.finish())
        }
        var context = ReadContext(source: source, findings: findings)
        var document = DocumentReader.read(root, &context)
        document?.wasSigned = wasSigned
        return ParseResult(document: document, findings: context.findings.finish())
    }
}
