import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Words for the XML errors libxml2 (behind Foundation's `XMLParser`) reports, so a refusal says
/// what is wrong rather than a number.
enum XMLSyntax {
    /// The problem with the error `parser` stopped at, on the line it stopped at.
    static func problem(_ parser: XMLParser, error: any Error) -> ManifestProblem {
        let code = (error as NSError).code
        let line = parser.lineNumber > 0 ? parser.lineNumber : nil
        return ManifestProblem(line: line, reason: "The XML is not well-formed: \(reason(code)).")
    }

    static func reason(_ code: Int) -> String {
        switch code {
        case 4: "there is no XML element in it"
        case 5: "it ends before every element is closed, or has something after its last element"
        case 9: "it contains a character (or byte) XML does not allow; save the file as UTF-8"
        case 26: "it uses an entity (&name;) that is not declared; write &amp; for a literal &"
        case 41: "an attribute has no value; write name=\"value\""
        case 42: "an element has the same attribute twice"
        case 68: "a & or < does not start a name; write &amp; or &lt; for the character"
        case 73: "a tag is not closed with >"
        case 76: "a closing tag does not match the element it closes"
        case 201: "it uses a namespace prefix that no xmlns: attribute declares"
        default: "libxml2 error \(code)"
        }
    }

    /// What must be refused before `XMLParser` sees the bytes, because swift-corelibs-foundation's
    /// parser crashes on it rather than reporting an error.
    static func problemBeforeParsing(_ bytes: some Collection<UInt8>) -> ManifestProblem? {
        encodingProblem(bytes) ?? emptyInstructionProblem(bytes)
    }

    /// Bytes that are not UTF-8: swift-corelibs-foundation's parser traps on an attribute value
    /// libxml2 passes through undecoded (found by the android-manifest fuzz target), and Xcode and
    /// Android Studio write UTF-8 anyway.
    static func encodingProblem(_ bytes: some Collection<UInt8>) -> ManifestProblem? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0, line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                offset += scalar.count
                if scalar.count == 1, scalar.first == 0x0A { line += 1 }
            case .error:
                return ManifestProblem(line: line,
                    reason: "The file is not UTF-8 (byte \(offset + 1) is not part of a UTF-8 character); save it as UTF-8.")
            case .emptyInput:
                return nil
            }
        }
    }

    /// A processing instruction with nothing after its target (`<?name?>`): libxml2 hands the
    /// parser a NULL data pointer for it, which swift-corelibs-foundation passes to `strlen` — a
    /// segfault, found by the entitlements fuzz target. Neither Xcode nor Android Studio writes one.
    /// The scan ignores comments and CDATA, so the refusal may also hit text that only looks like
    /// one there; a false refusal says what to change, a crash loses the request.
    static func emptyInstructionProblem(_ bytes: some Collection<UInt8>) -> ManifestProblem? {
        let bytes = Array(bytes)
        var line = 1, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            if byte == UInt8(ascii: "<"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "?") {
                // libxml2 reads the target up to white space or "?>"; "?>" first means no data.
                var end = index + 2
                while end < bytes.count, !isXMLSpace(bytes[end]), bytes[end] != UInt8(ascii: "?") { end += 1 }
                if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") {
                    return ManifestProblem(line: line,
                        reason: "A processing instruction has nothing after its name (<?name?>); remove it, or write <?xml version=\"1.0\" encoding=\"UTF-8\"?> for the XML declaration.")
                }
            }
            index += 1
        }
        return nil
    }

    private static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A parser that never fetches anything: no external entities, no DTD (an entitlements file's
    /// DOCTYPE names Apple's DTD by URL; reading a file must not reach the network).
    static func parser(_ data: Data) -> XMLParser {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        return parser
    }
}
