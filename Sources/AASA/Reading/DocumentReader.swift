import Vocabulary
import LocatedJSON

/// Turns the JSON tree into an `AASADocument`, reporting every structural and type problem with
/// its location. Lenient by design: a wrongly typed value is reported and dropped, and reading goes
/// on with its siblings, so one bad entry never hides the rest (aasa-spec.md §15.2).
enum DocumentReader {
    static let appsServices = ["webcredentials", "activitycontinuation", "appclips", "authsrv"]
    static let services = ["applinks"] + appsServices

    static func read(_ root: JSONValue, _ context: inout ReadContext) -> AASADocument? {
        guard case .object(let members) = root.kind else {
            context.report(.rootNotObject, .root, root.position,
                "The file is \(root.typeDescription), but an association file must be a JSON object.",
                hint: "Wrap the content in { } with service keys such as \"applinks\".")
            return nil
        }
        var document = AASADocument()
        var recognised = false
        for member in latestMembers(members) {
            let path = JSONPath.root.appending(member.key)
            if member.key == "applinks" {
                recognised = true
                document.applinks = AppLinksReader.read(member.value, path, &context)
            } else if appsServices.contains(member.key) {
                recognised = true
                if let service = AppsServiceReader.read(member.value, service: member.key, path, &context) {
                    document.appServices[member.key] = service
                }
            } else {
                reportUnknownTopLevel(member, path, &context)
                // Unknown services with the apps shape are kept: new services have appeared before (authsrv).
                if member.value.member("apps") != nil,
                   let service = AppsServiceReader.read(member.value, service: member.key, path, &context, quiet: true) {
                    document.appServices[member.key] = service
                }
            }
        }
        if !recognised {
            context.report(.noServices, .root, root.position,
                "The file names no service Apple reads (applinks, webcredentials, activitycontinuation, appclips, authsrv).",
                hint: "Add an \"applinks\" object with \"details\" for universal links.")
        }
        return document
    }

    private static func reportUnknownTopLevel(_ member: JSONMember, _ path: JSONPath, _ context: inout ReadContext) {
        let suggestion = KeySuggestion.nearest(to: member.key, among: services)
        let message = suggestion.map {
            "The top-level key \"\(member.key)\" is not a service Apple reads. Did you mean \"\($0)\"?"
        } ?? "The top-level key \"\(member.key)\" is not a service Apple reads; the system ignores it."
        let hint = suggestion.map { "Rename \"\(member.key)\" to \"\($0)\"." } ?? "Remove it unless another tool needs it."
        // A near miss of a real service loses that service entirely, so it is a warning, not info.
        context.report(.unknownKey, path, member.keyPosition, message, hint: hint, severity: suggestion == nil ? .info : .warning)
    }

    /// Members in byte order with earlier duplicates removed (the duplicate itself was reported by the reader).
    static func latestMembers(_ members: [JSONMember]) -> [JSONMember] {
        guard members.count > 1 else { return members }
        // Components have a handful of keys: comparing pairs beats building a dictionary per object.
        if members.count <= 16 {
            var duplicated = false
            outer: for i in 0..<members.count {
                for j in (i + 1)..<members.count where members[i].key == members[j].key {
                    duplicated = true
                    break outer
                }
            }
            if !duplicated { return members }
        }
        var lastIndex: [String: Int] = [:]
        lastIndex.reserveCapacity(members.count)
        for (i, member) in members.enumerated() { lastIndex[member.key] = i }
        if lastIndex.count == members.count { return members }
        return members.enumerated().filter { lastIndex[$0.element.key] == $0.offset }.map(\.element)
    }
}
