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

    /// Bytes that are not UTF-8, refused before `XMLParser` sees them: swift-corelibs-foundation's
    /// parser traps on an attribute value libxml2 passes through undecoded (found by the
    /// android-manifest fuzz target), and Xcode and Android Studio write UTF-8 anyway.
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

    /// A parser that never fetches anything: no external entities, no DTD (an entitlements file's
    /// DOCTYPE names Apple's DTD by URL; reading a file must not reach the network).
    static func parser(_ data: Data) -> XMLParser {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        return parser
    }
}
