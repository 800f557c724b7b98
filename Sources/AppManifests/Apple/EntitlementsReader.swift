import AASA
import Foundation
import Vocabulary

/// Reads an app's Associated Domains from what a developer has at hand: an `.entitlements` property
/// list (XML as Xcode writes it, or binary), a bare `com.apple.developer.associated-domains` array
/// (property list or JSON), or a built app's entitlements (`codesign -d --entitlements`). Pure: no
/// I/O; the property list is read by Foundation's `PropertyListSerialization`.
public enum EntitlementsReader {
    public static let associatedDomainsKey = "com.apple.developer.associated-domains"
    /// iOS writes `application-identifier`, macOS `com.apple.application-identifier`.
    public static let appIDKeys = ["application-identifier", "com.apple.application-identifier"]
    public static let teamIDKey = "com.apple.developer.team-identifier"
    /// Entitlements are a few kilobytes; the form and the API take at most 800 KB of app files, and
    /// the CLI reads up to 64 MB, so the reader holds its own limit.
    public static let maxBytes = 1 << 20

    /// The entitlements in `bytes`, or every reason to refuse them (with lines where the format has
    /// them). Refuses the whole file when one entry breaks a rule of aasa-spec.md §13, so an import
    /// registers all of an app's domains or none.
    public static func read(_ bytes: [UInt8]) throws(ManifestRefusal) -> AppleEntitlements {
        guard bytes.count <= maxBytes else {
            throw ManifestRefusal(line: nil,
                "The file has \(bytes.count) bytes; entitlements are a few kilobytes, and at most \(maxBytes >> 20) MB is read.")
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let first = body.first(where: { !isSpace($0) }) else {
            throw ManifestRefusal(line: nil, "The file is empty; expected an entitlements property list or an array of associated domains.")
        }
        let data = Data(body)
        let value: Any
        var lines = Lines()
        if body.starts(with: Array("bplist".utf8)) {
            try checkObjects(body)
            value = try propertyList(data)
        } else if first == UInt8(ascii: "[") {
            value = try JSONArrayLines.read(data, lines: &lines)
        } else if first == UInt8(ascii: "<") {
            if let problem = XMLSyntax.problemBeforeParsing(body) { throw ManifestRefusal([problem]) }
            let scan = PlistXMLLines.scan(data, arrayKey: associatedDomainsKey)
            if let error = scan.syntaxError { throw ManifestRefusal([error]) }
            lines.entries = scan.entryLines
            lines.keys = scan.keyLines
            value = try propertyList(data)
        } else {
            // The old ASCII property list format, `( "applinks:example.com" )`, which
            // PropertyListSerialization still reads.
            if let problem = asciiNestingProblem(body) { throw ManifestRefusal([problem]) }
            value = try propertyList(data)
        }
        return try entitlements(from: value, lines: lines)
    }

    /// Entries typed one per line (a form's text area, a CLI's repeated option): the same rules as
    /// the file's array, with each refusal on the entry's 1-based line. Blank lines are skipped.
    public static func read(entries: [String]) throws(ManifestRefusal) -> AppleEntitlements {
        var kept: [Any] = []
        var lines = Lines()
        for (index, line) in entries.enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            kept.append(text)
            lines.entries.append(index + 1)
        }
        return try entitlements(from: kept, lines: lines)
    }

    /// Where things are in the text, when the format has lines.
    struct Lines {
        var entries: [Int] = []
        var keys: [String: Int] = [:]

        func entry(_ index: Int) -> Int? { entries.indices.contains(index) ? entries[index] : nil }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func propertyList(_ data: Data) throws(ManifestRefusal) -> Any {
        do {
            return try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            // Foundation's message sometimes names a line ("Close tag on line 8 …"); keep it whole.
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            // Foundation also counts a lone carriage return as a line break; a line past the last
            // newline-separated one would point nowhere, so it is left out (found by fuzzing).
            let lines = data.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw ManifestRefusal(line: detail.flatMap(lineNumber(in:)).flatMap { $0 <= lines ? $0 : nil },
                "The file is not a property list\(detail.map { ": \($0)" } ?? ""). Expected an .entitlements file as Xcode writes it, a binary property list, or a JSON array of strings.")
        }
    }

    /// Foundation must never see a binary plist holding a set (bridging it crashes the process), nor
    /// one whose shared references expand to more than entitlements ever hold (bridging copies each).
    private static func checkObjects(_ body: ArraySlice<UInt8>) throws(ManifestRefusal) {
        let again = "Export the entitlements again with codesign -d --entitlements, or pass the .entitlements file Xcode writes."
        do throws(BinaryPlistObjects.Problem) {
            try BinaryPlistObjects.check(body)
        } catch {
            switch error {
            case .set(let index, let offset):
                throw ManifestRefusal(line: nil,
                    "The binary property list holds a set (object \(index), at byte \(offset)); entitlements hold only dictionaries, arrays, strings and booleans. \(again)")
            case .tooManyValues(let limit):
                throw ManifestRefusal(line: nil,
                    "The binary property list expands to more than \(limit) values once read (its containers refer to the same objects again and again, and each reference is read as a copy); entitlements hold a few dozen. \(again)")
            case .tooManyBytes(let limit):
                throw ManifestRefusal(line: nil,
                    "The binary property list's strings and data come to more than \(limit >> 20) MB once read (each reference to a shared string is read as a copy); entitlements hold a few kilobytes. \(again)")
            case .tooDeep(let limit):
                throw ManifestRefusal(line: nil,
                    "The binary property list nests containers more than \(limit) deep; entitlements nest two or three (a dictionary of arrays of strings). \(again)")
            case .malformed(let reason):
                throw ManifestRefusal(line: nil,
                    "The file starts like a binary property list, but \(reason). Pass the .entitlements file Xcode writes, or the built app's entitlements (codesign -d --entitlements - App.app).")
            }
        }
    }

    /// Nesting in the old ASCII format, held to the binary format's depth. CoreFoundation reads it
    /// recursively and stops itself somewhere past a hundred levels (measured: 100 read, 600 refused
    /// as "Expected terminating ')'"), so this is not about the stack: it keeps one budget for every
    /// format, and a refusal that says what is wrong. Strings (either quote, with backslash escapes)
    /// and comments are skipped, since brackets there are text.
    static func asciiNestingProblem(_ bytes: ArraySlice<UInt8>) -> ManifestProblem? {
        var depth = 0, line = 1
        var index = bytes.startIndex
        func at(_ i: Int) -> UInt8? { i < bytes.endIndex ? bytes[i] : nil }
        while let byte = at(index) {
            if byte == 0x0A { line += 1 }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index += 1
                while let inner = at(index), inner != byte {
                    if inner == 0x0A { line += 1 }
                    index += inner == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "/") where at(index + 1) == UInt8(ascii: "*"):
                index += 2
                while let inner = at(index), !(inner == UInt8(ascii: "*") && at(index + 1) == UInt8(ascii: "/")) {
                    if inner == 0x0A { line += 1 }
                    index += 1
                }
                index += 1
            case UInt8(ascii: "/") where at(index + 1) == UInt8(ascii: "/"):
                while let inner = at(index + 1), inner != 0x0A { index += 1 }
            case UInt8(ascii: "("), UInt8(ascii: "{"):
                depth += 1
                if depth > BinaryPlistObjects.maxDepth {
                    return ManifestProblem(line: line,
                        reason: "The property list nests ( or { more than \(BinaryPlistObjects.maxDepth) deep; an array of associated domains nests one.")
                }
            case UInt8(ascii: ")"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// "… on line 8 …" → 8.
    static func lineNumber(in message: String) -> Int? {
        guard let range = message.range(of: "line ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    private static func entitlements(from value: Any, lines: Lines) throws(ManifestRefusal) -> AppleEntitlements {
        var problems: [ManifestProblem] = []
        var appIDs: [AppID] = []
        var teamID: String?
        let entries: [Any]
        if let array = value as? [Any] {
            entries = array
        } else if let dictionary = value as? [String: Any] {
            guard let domains = dictionary[associatedDomainsKey] else {
                throw ManifestRefusal(line: nil,
                    "The entitlements have no \(associatedDomainsKey) key, so the app claims no domain; add the Associated Domains capability in Xcode.")
            }
            guard let array = domains as? [Any] else {
                throw ManifestRefusal(line: lines.keys[associatedDomainsKey],
                    "\(associatedDomainsKey) must be an array of strings such as applinks:example.com.")
            }
            entries = array
            for key in appIDKeys {
                guard let raw = dictionary[key] else { continue }
                let line = lines.keys[key]
                guard let text = raw as? String else {
                    problems.append(ManifestProblem(line: line, reason: "\(key) must be a string, TEAMID.bundle.id."))
                    continue
                }
                // Xcode's project files write `$(AppIdentifierPrefix)$(CFBundleIdentifier)`, filled
                // in only when the app is signed: not an app ID yet, so the caller must name one.
                if text.contains("$(") { continue }
                do {
                    let appID = try AppID(text)
                    if !appIDs.contains(appID) { appIDs.append(appID) }
                } catch {
                    problems.append(ManifestProblem(line: line, reason: "\(key): \(error.message)", code: "app-id-malformed"))
                }
            }
            if let raw = dictionary[teamIDKey] {
                if let text = raw as? String, !text.contains("$(") { teamID = text }
            }
        } else {
            throw ManifestRefusal(line: nil,
                "Expected a dictionary of entitlements or an array of associated domains at the top of the file.")
        }
        if entries.isEmpty {
            problems.append(ManifestProblem(line: lines.keys[associatedDomainsKey],
                reason: "\(associatedDomainsKey) is empty, so the app claims no domain."))
        }

        var domains: [AssociatedDomain] = []
        var ignored: [IgnoredEntitlement] = []
        for (index, raw) in entries.enumerated() {
            let line = lines.entry(index)
            guard let text = raw as? String else {
                problems.append(ManifestProblem(line: line,
                    reason: "Entry \(index + 1) of \(associatedDomainsKey) is not a string; write <service>:<host>, e.g. applinks:example.com."))
                continue
            }
            switch entry(text, line: line) {
            case .domain(let domain):
                if domains.contains(where: { $0.service == domain.service && $0.host == domain.host && $0.isWildcard == domain.isWildcard
                                             && $0.modes == domain.modes }) {
                    ignored.append(IgnoredEntitlement(entitlement: text, line: line, reason: "listed twice"))
                } else {
                    domains.append(domain)
                }
            case .ignored(let entry):
                ignored.append(entry)
            case .refused(let refused):
                problems += refused
            }
        }
        if !entries.isEmpty, problems.isEmpty, domains.isEmpty {
            problems.append(ManifestProblem(line: lines.keys[associatedDomainsKey],
                reason: "\(associatedDomainsKey) claims no domain for applinks, webcredentials, appclips or activitycontinuation."))
        }
        if !problems.isEmpty { throw ManifestRefusal(problems) }
        return AppleEntitlements(domains: domains, appIDs: appIDs, teamID: teamID, ignored: ignored)
    }

    enum Entry {
        case domain(AssociatedDomain)
        case ignored(IgnoredEntitlement)
        case refused([ManifestProblem])
    }

    /// One entitlement string, held to the rules of aasa-spec.md §13 by AASA's `EntitlementValidator`.
    static func entry(_ text: String, line: Int?) -> Entry {
        if let start = text.range(of: "$(") {
            let name = text[start.upperBound...].prefix { $0 != ")" }
            return .refused([ManifestProblem(line: line,
                reason: "\"\(text)\" uses the build setting $(\(name)), which Xcode fills in when it builds the app; pass the built app's entitlements (codesign -d --entitlements - App.app) or write the host.",
                code: "entitlement-malformed")])
        }
        let (parts, findings) = EntitlementValidator.read(text)
        let errors = findings.filter { $0.severity == .error }
        guard let parts, errors.isEmpty else {
            return .refused(errors.map { ManifestProblem(line: line, reason: sentence($0), code: $0.code) })
        }
        guard let service = Service(rawValue: parts.service) else {
            // `authsrv` (single sign-on extensions) is a valid service the monitor does not watch.
            return .ignored(IgnoredEntitlement(entitlement: text, line: line,
                reason: "\(parts.service) is not one of the services the monitor watches"))
        }
        return .domain(AssociatedDomain(service: service, host: parts.host, isWildcard: parts.isWildcard,
                                        modes: parts.mode.flatMap(AlternateModes.init(mode:)) ?? [],
                                        entitlement: text, line: line, notes: findings))
    }

    private static func sentence(_ finding: Finding) -> String {
        finding.hint.map { "\(finding.message) \($0)" } ?? finding.message
    }
}
