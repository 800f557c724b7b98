import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A pass of Foundation's `XMLParser` over an XML property list before `PropertyListSerialization`
/// reads it: `PropertyListSerialization` reports neither the line of a syntax error reliably nor
/// where a value is, and a refusal must name the line. Records the line of each element of the
/// associated-domains array and of each top-level key.
final class PlistXMLLines: NSObject, XMLParserDelegate {
    /// The first syntax error, if any.
    private(set) var syntaxError: ManifestProblem?
    /// Lines of the direct children of the associated-domains array (or of a top-level array), in order.
    private(set) var entryLines: [Int] = []
    /// Line of each key of the top-level dictionary.
    private(set) var keyLines: [String: Int] = [:]

    private let arrayKey: String
    private var path: [String] = []
    private var keyText = ""
    private var lastKey: String?
    private var inEntryArray = false

    init(arrayKey: String) {
        self.arrayKey = arrayKey
    }

    static func scan(_ data: Data, arrayKey: String) -> PlistXMLLines {
        let lines = PlistXMLLines(arrayKey: arrayKey)
        let parser = XMLSyntax.parser(data)
        parser.delegate = lines
        _ = parser.parse()
        // libxml2 sets the error without failing `parse()` for some errors (an unclosed element at
        // the end), so the error is read, not the return value.
        if lines.syntaxError == nil, let error = parser.parserError {
            lines.syntaxError = XMLSyntax.problem(parser, error: error)
        }
        return lines
    }

    /// `<plist>` and the nesting a binary property list may have: entitlements need four levels
    /// (plist, dict, array, string). XML cannot share a value, so values never outnumber elements;
    /// depth is the one budget the reader adds. Foundation stops itself a few hundred levels down
    /// ("Too many nested arrays or dictionaries": measured, 100 read, 1,000 refused); this keeps
    /// one budget for every format, with the line of the element that passes it.
    static let maxDepth = BinaryPlistObjects.maxDepth + 1

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard path.count < Self.maxDepth else {
            if syntaxError == nil {
                syntaxError = ManifestProblem(line: parser.lineNumber > 0 ? parser.lineNumber : nil,
                    reason: "The property list nests elements more than \(Self.maxDepth) deep; entitlements nest four (plist, dict, array, string).")
            }
            parser.abortParsing()
            return
        }
        // plist > dict > key | value;  plist > array > value (a bare associated-domains array).
        if inEntryArray, path.count == (topIsArray ? 2 : 3) {
            entryLines.append(parser.lineNumber)
        }
        path.append(elementName)
        if path == ["plist", "dict", "key"] { keyText = "" }
        if elementName == "array" {
            if path == ["plist", "array"] || (path == ["plist", "dict", "array"] && lastKey == arrayKey) {
                inEntryArray = true
            }
        }
    }

    private var topIsArray: Bool { path.count >= 2 && path[1] == "array" }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if path == ["plist", "dict", "key"] { keyText += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        if path == ["plist", "dict", "key"] {
            lastKey = keyText
            if keyLines[keyText] == nil { keyLines[keyText] = parser.lineNumber }
        } else if path.count == 3 && path.prefix(2) == ["plist", "dict"] && elementName != "key" {
            if elementName == "array" { inEntryArray = false }
            lastKey = nil
        } else if path == ["plist", "array"] {
            inEntryArray = false
        }
        if !path.isEmpty { path.removeLast() }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if syntaxError == nil { syntaxError = XMLSyntax.problem(parser, error: parseError) }
    }
}
