import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an `AndroidManifest.xml` (the source or the merged one, as text) with Foundation's
/// `XMLParser`: the package and the web intent filters. Pure: no I/O. Which filters count follows
/// assetlinks-spec.md §2.5: the VIEW action, the BROWSABLE category, an `http`/`https` scheme;
/// `android:autoVerify="true"` makes their hosts verified.
public enum AndroidManifestReader {
    public static let androidNamespace = "http://schemas.android.com/apk/res/android"
    /// A large app's merged manifest is a megabyte or two; the form and the API take at most 800 KB
    /// of app files and the CLI reads up to 64 MB, so the reader holds its own limit. libxml2's
    /// reading is linear in the bytes (its parser keeps its own stack, not the call stack's).
    public static let maxBytes = 8 << 20

    /// The manifest in `bytes`, or every reason to refuse it, each with its line.
    public static func read(_ bytes: [UInt8]) throws(ManifestRefusal) -> AndroidManifest {
        guard bytes.count <= maxBytes else {
            throw ManifestRefusal(line: nil,
                "The file has \(bytes.count) bytes; a merged AndroidManifest.xml is a megabyte or two, and at most \(maxBytes >> 20) MB is read.")
        }
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            throw ManifestRefusal(line: nil, "The file is empty; expected an AndroidManifest.xml.")
        }
        if bytes.starts(with: [0x03, 0x00, 0x08, 0x00]) {
            // The compiled manifest inside an APK: binary XML, not text.
            throw ManifestRefusal(line: nil,
                "This is a compiled (binary XML) manifest from an APK; pass the text AndroidManifest.xml, or print it with aapt2 dump xmltree.")
        }
        if let problem = XMLSyntax.problemBeforeParsing(bytes) { throw ManifestRefusal([problem]) }
        let collector = ManifestCollector()
        let parser = XMLSyntax.parser(Data(bytes))
        parser.delegate = collector
        _ = parser.parse()
        if let error = collector.syntaxError ?? parser.parserError.map({ XMLSyntax.problem(parser, error: $0) }) {
            throw ManifestRefusal([error])
        }
        guard collector.root == "manifest" else {
            throw ManifestRefusal(line: collector.rootLine,
                "The root element is <\(collector.root ?? "")>, not <manifest>: this is not an AndroidManifest.xml.")
        }
        if !collector.problems.isEmpty { throw ManifestRefusal(collector.problems) }
        return AndroidManifest(package: collector.package, webFilters: collector.filters)
    }
}

/// Builds the web intent filters as the parser walks the document.
private final class ManifestCollector: NSObject, XMLParserDelegate {
    var root: String?
    var rootLine: Int?
    var package: String?
    var filters: [WebIntentFilter] = []
    var problems: [ManifestProblem] = []
    var syntaxError: ManifestProblem?

    /// The prefix bound to Android's namespace (almost always `android`).
    private var prefix = "android"
    private var path: [String] = []
    private var activity: String?
    private var filter: FilterDraft?

    struct FilterDraft {
        var line: Int
        var autoVerify: Bool
        var actions: Set<String> = []
        var categories: Set<String> = []
        var schemes: [String] = []
        var hosts: [(ManifestHost, Int)] = []
        var paths: [PathPattern] = []
        var problems: [ManifestProblem] = []
    }

    private func attribute(_ name: String, _ attributes: [String: String]) -> String? {
        attributes["\(prefix):\(name)"]
    }

    /// A manifest nests about six deep (manifest, application, activity, intent-filter, data);
    /// Foundation's XMLParser sets no limit of its own (measured: 100,000 levels read), so the
    /// collector's path would grow with the file. 64 leaves room for anything a build tool writes.
    static let maxDepth = 64

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let line = parser.lineNumber
        guard path.count < Self.maxDepth else {
            if syntaxError == nil {
                syntaxError = ManifestProblem(line: line > 0 ? line : nil,
                    reason: "The manifest nests elements more than \(Self.maxDepth) deep; a manifest nests about six (manifest, application, activity, intent-filter, data).")
            }
            parser.abortParsing()
            return
        }
        if path.isEmpty {
            root = name
            rootLine = line
            if let bound = attributes.first(where: { $0.key.hasPrefix("xmlns:") && $0.value == AndroidManifestReader.androidNamespace }) {
                prefix = String(bound.key.dropFirst("xmlns:".count))
            }
            package = attributes["package"].flatMap { $0.isEmpty ? nil : $0 }
        }
        path.append(name)
        switch name {
        case "activity", "activity-alias":
            activity = attribute("name", attributes)
        case "intent-filter":
            // Only activities receive browser links; a receiver's or service's filter is not an App Link.
            if let parent = path.dropLast().last, parent == "activity" || parent == "activity-alias" {
                filter = FilterDraft(line: line, autoVerify: attribute("autoVerify", attributes) == "true")
            }
        case "action":
            if let value = attribute("name", attributes) { filter?.actions.insert(value) }
        case "category":
            if let value = attribute("name", attributes) { filter?.categories.insert(value) }
        case "data":
            guard filter != nil else { break }
            data(attributes, line: line)
        default:
            break
        }
    }

    private func data(_ attributes: [String: String], line: Int) {
        if let scheme = attribute("scheme", attributes) { filter?.schemes.append(scheme) }
        if let host = attribute("host", attributes) {
            switch ManifestHostRule.read(host) {
            case .success(let parsed): filter?.hosts.append((parsed, line))
            case .failure(let problem): filter?.problems.append(ManifestProblem(line: line, reason: problem.reason))
            }
        }
        let kinds: [(String, (String) -> PathPattern)] = [
            ("path", PathPattern.path), ("pathPrefix", PathPattern.prefix), ("pathSuffix", PathPattern.suffix),
            ("pathPattern", PathPattern.pattern), ("pathAdvancedPattern", PathPattern.advancedPattern),
        ]
        for (key, make) in kinds {
            if let value = attribute(key, attributes) { filter?.paths.append(make(value)) }
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "intent-filter", let draft = filter {
            finish(draft)
            filter = nil
        }
        if name == "activity" || name == "activity-alias" { activity = nil }
        if !path.isEmpty { path.removeLast() }
    }

    private func finish(_ draft: FilterDraft) {
        let web = draft.schemes.filter { $0 == "http" || $0 == "https" }
        guard draft.actions.contains("android.intent.action.VIEW"),
              draft.categories.contains("android.intent.category.BROWSABLE"), !web.isEmpty else { return }
        // A broken host only matters where Android would verify it; elsewhere it is a deep link
        // the monitor does not watch.
        if draft.autoVerify {
            problems += draft.problems
            if draft.hosts.isEmpty && draft.problems.isEmpty {
                problems.append(ManifestProblem(line: draft.line,
                    reason: "This autoVerify intent filter names no android:host, so it takes links to every site and Android cannot verify it; add <data android:host=\"example.com\"/>."))
            }
        }
        var seen = Set<ManifestHost>()
        filters.append(WebIntentFilter(
            line: draft.line, activity: activity, autoVerify: draft.autoVerify, schemes: Array(Set(web)).sorted(),
            hosts: draft.hosts.map(\.0).filter { seen.insert($0).inserted }, paths: draft.paths,
            hasDefaultCategory: draft.categories.contains("android.intent.category.DEFAULT")))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if syntaxError == nil { syntaxError = XMLSyntax.problem(parser, error: parseError) }
    }
}
