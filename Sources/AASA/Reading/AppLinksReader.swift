import LocatedJSON
import Vocabulary

/// Reads the `applinks` service (aasa-spec.md §5). Keys are read in the order the checks need
/// (variables and defaults before the rules that use them), whatever their order in the file.
enum AppLinksReader {
    static let knownKeys = ["apps", "details", "defaults", "substitutionVariables"]

    static func read(_ value: JSONValue, _ path: JSONPath, _ context: inout ReadContext) -> AppLinks? {
        guard case .object(let members) = value.kind else {
            context.report(.serviceNotObject, path, value.position,
                "\"applinks\" is \(value.typeDescription), but it must be an object with \"details\".",
                hint: "Write \"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}]}.")
            return nil
        }
        var appLinks = AppLinks(location: context.location(path, value.position))
        if let variables = value.member("substitutionVariables") {
            appLinks.substitutionVariables = SubstitutionVariablesReader.read(variables.value, path.appending("substitutionVariables"), &context)
        }
        if let defaults = value.member("defaults") {
            appLinks.defaults = DefaultsReader.read(defaults.value, path.appending("defaults"), level: "applinks", &context)
            context.applinksDefaults = appLinks.defaults
        }
        appLinks.apps = readApps(value, path, &context)

        var tally = DetailEntryReader.Tally()
        if let details = value.member("details") {
            let detailsPath = path.appending("details")
            switch details.value.kind {
            case .array(let elements):
                appLinks.detailsForm = .array
                for (i, element) in elements.enumerated() {
                    if let entry = DetailEntryReader.read(element, detailsPath.appending(i), &context, &tally) {
                        appLinks.details.append(entry)
                    }
                }
                if elements.isEmpty { reportEmptyDetails(details, detailsPath, &context) }
            case .object(let entries):
                appLinks.detailsForm = .dictionary
                context.report(.detailsIsDictionary, detailsPath, details.value.position,
                    "\"details\" uses the 2015 form, an object keyed by app ID, which Apple called obsolete in 2019; the order between apps is then undefined.",
                    hint: "Write an array: [{\"appIDs\": [\"<app ID>\"], \"components\": [...]}] with one entry per key.")
                // Byte order is kept (our reader preserves it) even though JSON objects promise none.
                for entry in DocumentReader.latestMembers(entries) {
                    let entryPath = detailsPath.appending(entry.key)
                    AppIDCheck.check(entry.key, entryPath, entry.keyPosition, &context)
                    if let read = DetailEntryReader.read(entry.value, entryPath, dictionaryKey: entry.key, &context, &tally) {
                        appLinks.details.append(read)
                    }
                }
                if entries.isEmpty { reportEmptyDetails(details, detailsPath, &context) }
            default:
                appLinks.detailsForm = .invalid
                context.report(.detailsWrongType, detailsPath, details.value.position,
                    "\"details\" is \(details.value.typeDescription), but it must be an array of entries; no app gets any link.",
                    hint: "Write \"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}].")
            }
        } else {
            appLinks.detailsForm = .missing
            context.report(.applinksDetailsMissing, path, value.position,
                "\"applinks\" has no \"details\", so no app opens any link of this domain.",
                hint: "Add \"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}].")
        }
        if let (firstPath, firstPosition) = tally.firstNeedingIOS13 {
            let count = tally.needsIOS13
            context.report(.entryNeedsIOS13, firstPath, firstPosition,
                "\(count == 1 ? "This entry is" : "\(count) entries (the first here) are") usable only from iOS 13: iOS 12 and earlier read only \"appID\" and \"paths\"\(context.targetsLegacyOS ? ", and the file's applinks.apps suggests it is meant for them" : "").",
                hint: "If iOS 12 devices matter, add \"appID\" and an equivalent \"paths\" list to these entries; otherwise nothing to do.",
                severity: context.targetsLegacyOS ? .warning : .info)
        }
        for variable in appLinks.substitutionVariables where !context.referencedVariables.contains(variable.name) {
            context.findings.add(FindingDefinition.substUnused.finding(at: variable.location,
                "The substitution variable \"\(variable.name)\" is defined but no pattern uses it.",
                hint: "Use it as $(\(variable.name)) in a pattern, or remove it."))
        }
        context.reportUnknownKeys(members, known: knownKeys, at: path, what: "\"applinks\"")
        return appLinks
    }

    private static func reportEmptyDetails(_ details: JSONMember, _ path: JSONPath, _ context: inout ReadContext) {
        context.report(.detailsEmpty, path, details.value.position,
            "\"details\" is empty, so no app opens any link of this domain.",
            hint: "Add an entry: {\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}.")
    }

    /// The legacy `apps` key: must be present and empty for iOS 12 and earlier (§5).
    private static func readApps(_ value: JSONValue, _ path: JSONPath, _ context: inout ReadContext) -> [String]? {
        guard let member = value.member("apps") else {
            context.report(.applinksAppsMissing, path, value.position,
                "\"applinks\" has no \"apps\" key; iOS 12 and earlier require \"apps\": [] (later systems do not need it).",
                hint: "Add \"apps\": [] if you support iOS 12 or tvOS 12.")
            return nil
        }
        context.targetsLegacyOS = true
        let appsPath = path.appending("apps")
        guard case .array(let elements) = member.value.kind else {
            context.report(.applinksAppsWrongType, appsPath, member.value.position,
                "applinks.apps is \(member.value.typeDescription); iOS 12 and earlier need it to be an empty array.",
                hint: "Write \"apps\": [].")
            return nil
        }
        let apps = elements.compactMap(\.stringValue)
        if !elements.isEmpty {
            context.report(.applinksAppsNotEmpty, appsPath, member.value.position,
                "applinks.apps must be an empty array; app IDs belong in \"details\". Older systems may reject the file.",
                hint: "Write \"apps\": [] and list the apps in details[].appIDs.")
        }
        return apps
    }
}
