import LocatedJSON

/// Reads `{"apps": [...]}` services: webcredentials, activitycontinuation, appclips, authsrv.
enum AppsServiceReader {
    static func read(_ value: JSONValue, service: String, _ path: JSONPath, _ context: inout ReadContext,
                     quiet: Bool = false) -> AppsService? {
        guard case .object(let members) = value.kind else {
            if !quiet {
                context.report(.serviceNotObject, path, value.position,
                    "\"\(service)\" is \(value.typeDescription), but a service must be an object such as {\"apps\": [\"TEAMID.com.example.app\"]}.",
                    hint: "Write \"\(service)\": {\"apps\": [\"ABCDE12345.com.example.app\"]}.")
            }
            return nil
        }
        var apps: [String] = []
        if let appsMember = value.member("apps") {
            let appsPath = path.appending("apps")
            switch appsMember.value.kind {
            case .array(let elements):
                for (i, element) in elements.enumerated() {
                    if let app = element.stringValue {
                        apps.append(app)
                        if !quiet { AppIDCheck.check(app, appsPath.appending(i), element.position, &context) }
                    } else if !quiet {
                        context.report(.serviceAppsWrongType, appsPath.appending(i), element.position,
                            "An element of \(service).apps is \(element.typeDescription); every element must be an app ID string.",
                            hint: "Write the app ID in quotes, e.g. \"ABCDE12345.com.example.app\".")
                    }
                }
                if elements.isEmpty && !quiet {
                    context.report(.serviceAppsEmpty, appsPath, appsMember.value.position,
                        "\(service).apps is empty, so no app gets this service for the domain.",
                        hint: "List the app IDs, e.g. [\"ABCDE12345.com.example.app\"], or remove \"\(service)\".")
                }
            default:
                if !quiet {
                    context.report(.serviceAppsWrongType, appsPath, appsMember.value.position,
                        "\(service).apps is \(appsMember.value.typeDescription); it must be an array of app ID strings.",
                        hint: "Write \"apps\": [\"ABCDE12345.com.example.app\"].")
                }
            }
        } else if !quiet {
            context.report(.serviceAppsMissing, path, value.position,
                "\"\(service)\" has no \"apps\" array, so it names no app.",
                hint: "Add \"apps\": [\"ABCDE12345.com.example.app\"].")
        }
        if !quiet {
            if let details = value.member("details") {
                context.report(.detailsInNonApplinksService, path.appending("details"), details.keyPosition,
                    "\"details\" means something only under \"applinks\"; \(service) reads only \"apps\".",
                    hint: "Move the entry to applinks.details, and list the app IDs in \(service).apps.")
            }
            context.reportUnknownKeys(members, known: ["apps"], at: path, what: "\"\(service)\"", skipping: ["details"])
        }
        return AppsService(apps: apps, location: context.location(path, value.position))
    }
}
