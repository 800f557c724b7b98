import Vocabulary
import LocatedJSON

/// Reads one `applinks.details` entry (aasa-spec.md §6), in the array form or as the value of the
/// obsolete dictionary form (where the key is the app ID).
enum DetailEntryReader {
    static let knownKeys = ["appID", "appIDs", "components", "paths", "defaults"]
    static let aliases = ["patterns": "components", "rules": "components", "path": "paths", "urls": "paths"]

    /// Facts about entries that are reported once per file rather than once per entry.
    struct Tally {
        var needsIOS13 = 0
        var firstNeedingIOS13: (JSONPath, TextPosition)?
    }

    static func read(_ value: JSONValue, _ path: JSONPath, dictionaryKey: String? = nil,
                     _ context: inout ReadContext, _ tally: inout Tally) -> DetailEntry? {
        guard case .object(let members) = value.kind else {
            context.report(.detailNotObject, path, value.position,
                "This details entry is \(value.typeDescription), but each entry must be an object with \"appIDs\" and \"components\".",
                hint: "Write {\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}.")
            return nil
        }
        let entryDefaults = readDefaults(value, path, &context)
        let appIDs: [String]
        var hasAppIDs = false, hasAppID = false
        if let key = dictionaryKey {
            appIDs = [key]
            hasAppID = true
        } else {
            (appIDs, hasAppID, hasAppIDs) = readAppIDs(value, path, &context)
        }
        let percentEncoded = entryDefaults?.percentEncoded ?? context.applinksDefaults?.percentEncoded ?? true

        var componentRules: [Rule] = []
        let components = value.member("components")
        if let components {
            let componentsPath = path.appending("components").materialized()
            if case .array(let elements) = components.value.kind {
                for (i, element) in elements.enumerated() {
                    // Built once: the rule's location and each of its keys' paths extend it.
                    let rulePath = componentsPath.appending(i).materialized()
                    guard case .object(let ruleMembers) = element.kind else {
                        context.report(.componentNotObject, rulePath, element.position,
                            "This component is \(element.typeDescription), but each component must be an object such as {\"/\": \"/path/*\"}; it is ignored.",
                            hint: "Write the rule as an object, e.g. {\"/\": \"\(element.stringValue ?? "/*")\"}.")
                        continue
                    }
                    let read = ComponentReader.read(ruleMembers, rulePath, what: "this component", &context)
                    let effective = read.settings.percentEncoded ?? percentEncoded
                    for site in read.patterns { PatternCheck.check(site, percentEncoded: effective, &context) }
                    componentRules.append(Rule(settings: read.settings, comment: read.comment,
                                               location: context.location(rulePath, element.position)))
                }
            } else {
                context.report(.componentsWrongType, componentsPath, components.value.position,
                    "\"components\" is \(components.value.typeDescription), but it must be an array of component objects; the entry has no usable rules.",
                    hint: "Write \"components\": [{\"/\": \"/path/*\"}].")
            }
        }

        var pathRules: [Rule] = []
        let paths = value.member("paths")
        if let paths {
            pathRules = readPaths(paths, path.appending("paths"), &context)
        }

        let rules: [Rule]
        let source: DetailEntry.RulesSource
        // iOS 13+ ignores `paths` when `components` is present, even if components is unusable (§6.1).
        if components != nil {
            rules = componentRules
            source = .components
        } else if paths != nil {
            rules = pathRules
            source = .paths
        } else {
            rules = []
            source = .none
        }

        if let paths, components != nil {
            context.report(.pathsAndComponents, path.appending("paths"), paths.keyPosition,
                "This entry has both \"paths\" and \"components\": iOS 13 and later use only components, iOS 12 and earlier only paths, so the two systems can behave differently.",
                hint: "Keep only \"components\" unless you support iOS 12, and then keep both lists equivalent.")
        } else if let paths {
            context.report(.pathsLegacy, path.appending("paths"), paths.keyPosition,
                "This entry uses the legacy \"paths\" list, which Apple superseded with \"components\" in 2019.",
                hint: "Convert each path p to {\"/\": p}, and \"NOT p\" to {\"/\": p, \"exclude\": true}.")
        }
        if !appIDs.isEmpty && rules.isEmpty {
            reportRulesMissing(members, path, value.position, componentsPresent: components != nil, pathsPresent: paths != nil, &context)
        }
        if (hasAppIDs && !hasAppID) || (components != nil && paths == nil) {
            tally.needsIOS13 += 1
            if tally.firstNeedingIOS13 == nil { tally.firstNeedingIOS13 = (path, value.position) }
        }
        let known = dictionaryKey == nil ? knownKeys : ["components", "paths", "defaults"]
        context.reportUnknownKeys(members, known: known, at: path, what: "This details entry", aliases: aliases)
        return DetailEntry(appIDs: appIDs, rules: rules, rulesSource: source, defaults: entryDefaults,
                           location: context.location(path, value.position))
    }

    private static func readDefaults(_ entry: JSONValue, _ path: JSONPath, _ context: inout ReadContext) -> RuleSettings? {
        guard let member = entry.member("defaults") else { return nil }
        return DefaultsReader.read(member.value, path.appending("defaults"), level: "this entry", &context)
    }

    /// `appIDs` wins over `appID` whenever the key is present, even when empty (§6.1, O-ST).
    private static func readAppIDs(_ entry: JSONValue, _ path: JSONPath, _ context: inout ReadContext)
        -> (appIDs: [String], hasAppID: Bool, hasAppIDs: Bool) {
        var single: String?
        let appIDMember = entry.member("appID")
        if let appIDMember {
            let appIDPath = path.appending("appID")
            if let text = appIDMember.value.stringValue {
                single = text
                AppIDCheck.check(text, appIDPath, appIDMember.value.position, &context)
            } else {
                context.report(.appIDWrongType, appIDPath, appIDMember.value.position,
                    "\"appID\" is \(appIDMember.value.typeDescription), but it must be one app ID string.",
                    hint: appIDMember.value.kindIsArray ? "Rename the key to \"appIDs\" for a list of apps." : "Write \"appID\": \"ABCDE12345.com.example.app\".")
            }
        }
        guard let appIDsMember = entry.member("appIDs") else {
            if appIDMember == nil {
                context.report(.appIDMissing, path, entry.position,
                    "This details entry has neither \"appIDs\" nor \"appID\", so it applies to no app.",
                    hint: "Add \"appIDs\": [\"ABCDE12345.com.example.app\"].")
            }
            return (single.map { [$0] } ?? [], appIDMember != nil, false)
        }
        let appIDsPath = path.appending("appIDs")
        var list: [String] = []
        switch appIDsMember.value.kind {
        case .array(let elements):
            for (i, element) in elements.enumerated() {
                if let text = element.stringValue {
                    list.append(text)
                    AppIDCheck.check(text, appIDsPath.appending(i), element.position, &context)
                } else {
                    context.report(.appIDWrongType, appIDsPath.appending(i), element.position,
                        "An element of \"appIDs\" is \(element.typeDescription); every element must be an app ID string. It is ignored.",
                        hint: "Write the app ID in quotes.")
                }
            }
            if elements.isEmpty {
                context.report(.appIDsEmpty, appIDsPath, appIDsMember.value.position,
                    "\"appIDs\" is empty, so this entry applies to no app on iOS 13 and later\(appIDMember != nil ? " (its \"appID\" is ignored when \"appIDs\" is present)" : "").",
                    hint: "List the app IDs in \"appIDs\".")
            }
        default:
            // [uncertain] what a device does with a wrongly typed appIDs; we read it as present and empty.
            context.report(.appIDWrongType, appIDsPath, appIDsMember.value.position,
                "\"appIDs\" is \(appIDsMember.value.typeDescription), but it must be an array of app ID strings; the entry applies to no app.",
                hint: appIDsMember.value.stringValue.map { "Write \"appIDs\": [\"\($0)\"]." } ?? "Write \"appIDs\": [\"ABCDE12345.com.example.app\"].")
        }
        if appIDMember != nil {
            context.report(.appIDAndAppIDs, path.appending("appID"), appIDMember?.keyPosition ?? entry.position,
                "This entry has both \"appID\" and \"appIDs\": iOS 13 and later use only appIDs, iOS 12 and earlier only appID.",
                hint: "Keep only \"appIDs\" unless you support iOS 12; then make sure appID is one of appIDs.")
        }
        return (list, appIDMember != nil, true)
    }

    /// Legacy `paths`: each string a rule `{"/": p}`, or `{"/": p, "exclude": true}` for `NOT p` (§11, §12 step 6).
    /// Only `/` and `exclude` are set, as devices store them (X-SO68); whether `defaults` then
    /// applies to them is [uncertain] — legacy-only files never have defaults in practice.
    private static func readPaths(_ member: JSONMember, _ path: JSONPath, _ context: inout ReadContext) -> [Rule] {
        guard case .array(let elements) = member.value.kind else {
            context.report(.pathsWrongType, path, member.value.position,
                "\"paths\" is \(member.value.typeDescription), but it must be an array of path strings.",
                hint: member.value.stringValue.map { "Write \"paths\": [\"\($0)\"]." } ?? "Write \"paths\": [\"/path/*\"].")
            return []
        }
        var rules: [Rule] = []
        rules.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            let elementPath = path.appending(i)
            guard let text = element.stringValue else {
                context.report(.pathsWrongType, elementPath, element.position,
                    "An element of \"paths\" is \(element.typeDescription); every element must be a path string. It is ignored.",
                    hint: "Write the path in quotes.")
                continue
            }
            let excluded = text.hasPrefix("NOT ")
            let pattern = excluded ? String(text.dropFirst(4)) : text
            PatternCheck.check(PatternSite(text: pattern, kind: .path, path: elementPath, position: element.position, legacy: true),
                               percentEncoded: true, &context)
            rules.append(Rule(settings: RuleSettings(path: pattern, exclude: excluded ? true : nil), legacyPath: text,
                              location: context.location(elementPath, element.position)))
        }
        return rules
    }

    private static func reportRulesMissing(_ members: [JSONMember], _ path: JSONPath, _ position: TextPosition,
                                           componentsPresent: Bool, pathsPresent: Bool, _ context: inout ReadContext) {
        let misspelled = members.first { member in
            !knownKeys.contains(member.key)
                && (aliases[member.key] != nil || KeySuggestion.nearest(to: member.key, among: ["components", "paths"]) != nil)
        }
        let message: String
        if let misspelled {
            message = "This entry names apps but has no rules: \"\(misspelled.key)\" is not a key Apple reads, so no URL opens these apps through this entry."
        } else if componentsPresent || pathsPresent {
            message = "This entry names apps but its \(componentsPresent ? "\"components\"" : "\"paths\"") list has no usable rule, so no URL opens these apps through this entry."
        } else {
            message = "This entry names apps but has neither \"components\" nor \"paths\", so no URL opens these apps through this entry."
        }
        context.report(.rulesMissing, path, position, message,
                       hint: "Add \"components\": [{\"/\": \"/path/*\"}] with the URLs the apps should open.")
    }
}

extension JSONValue {
    var kindIsArray: Bool {
        if case .array = kind { return true }
        return false
    }
}
