import LocatedJSON
import TextEncoding
import Vocabulary

/// Reads a statement's `target`: an `android_app` (package + fingerprints) or a `web` site.
enum TargetReader {
    static func read(_ statement: JSONValue, _ statementPath: JSONPath, _ context: inout ReadContext,
                     valid: inout Bool) -> StatementTarget? {
        guard let member = context.required("target", of: statement, statementPath, valid: &valid, AndroidFinding.targetMissing,
            "The statement has no \"target\"; Google drops it.",
            hint: "Add \"target\": {\"namespace\": \"android_app\", \"package_name\": …, \"sha256_cert_fingerprints\": […]}.") else { return nil }
        let path = statementPath.appending("target").materialized()
        let target = member.value
        guard case .object(let members) = target.kind else {
            valid = false
            context.report(AndroidFinding.targetNotObject, path, target.position,
                "\"target\" is \(target.typeDescription), but it must be an object; Google drops the statement.",
                hint: "Write {\"namespace\": \"android_app\", …} or {\"namespace\": \"web\", \"site\": …}.")
            return nil
        }
        let namespace = target.member("namespace")
        switch namespace?.value.stringValue {
        case "android_app":
            context.reportUnknownKeys(members, known: ["namespace", "package_name", "sha256_cert_fingerprints"], at: path,
                                      what: "The android_app target",
                                      aliases: ["packageName": "package_name", "package": "package_name",
                                                "sha256_cert_fingerprint": "sha256_cert_fingerprints",
                                                "fingerprints": "sha256_cert_fingerprints"])
            let package = readPackageName(target, path, &context, valid: &valid)
            let fingerprints = readFingerprints(target, path, &context, valid: &valid)
            guard let package, let fingerprints else { return nil }
            return .androidApp(packageName: package, fingerprints: fingerprints)
        case "web":
            context.reportUnknownKeys(members, known: ["namespace", "site"], at: path, what: "The web target")
            return readSite(target, path, &context, valid: &valid)
        default:
            valid = false
            if let namespace {
                let shown = namespace.value.stringValue.map(JSONStringLiteral.quoted) ?? namespace.value.typeDescription
                context.report(AndroidFinding.namespaceUnknown, path.appending("namespace"), namespace.value.position,
                    "The namespace \(shown) is not one Google knows (android_app, web); it drops the statement.",
                    hint: namespace.value.stringValue == "ios_app"
                        ? "Apple apps are associated by apple-app-site-association, not assetlinks.json; remove this statement."
                        : "Use \"android_app\" for an app or \"web\" for a site.")
            } else {
                context.report(AndroidFinding.namespaceUnknown, path, target.position,
                    "The target has no \"namespace\"; Google drops the statement.",
                    hint: "Add \"namespace\": \"android_app\" (or \"web\").")
            }
            return nil
        }
    }

    // MARK: android_app

    private static func readPackageName(_ target: JSONValue, _ path: JSONPath, _ context: inout ReadContext,
                                        valid: inout Bool) -> String? {
        guard let member = context.required("package_name", of: target, path, valid: &valid, AndroidFinding.packageNameMissing,
            "The android_app target has no \"package_name\"; Google drops the statement.",
            hint: "Add \"package_name\": your app's application ID, e.g. \"com.example.app\".") else { return nil }
        let namePath = path.appending("package_name")
        guard let name = context.string("package_name", member, namePath, valid: &valid, AndroidFinding.packageNameInvalid,
                                        hint: "Write the application ID as a string.") else { return nil }
        // Google is known to refuse an empty name and whitespace (G-COMPAT); other defects make a name
        // no app can have, but whether Google keeps the statement is not documented, so it stays.
        let bytes = Array(name.utf8)
        let ascii = bytes.allSatisfy { $0 < 0x80 }
        if bytes.isEmpty || (ascii ? bytes.contains { [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains($0) } : name.contains(where: \.isWhitespace)) {
            valid = false
            context.report(AndroidFinding.packageNameInvalid, namePath, member.value.position,
                name.isEmpty ? "\"package_name\" is empty; Google drops the statement."
                             : "The package name \(JSONStringLiteral.quoted(name)) contains whitespace; Google drops the statement.",
                hint: "Use the applicationId from the app's build.gradle, e.g. \"com.example.app\".")
            return nil
        }
        func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let badCharacter = name.unicodeScalars.first { s in
            !(("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "_" || s == ".")
        }
        if let badCharacter {
            context.report(AndroidFinding.packageNameInvalid, namePath, member.value.position,
                "The package name \(JSONStringLiteral.quoted(name)) contains \(JSONStringLiteral.quoted(String(badCharacter))); an application ID has only letters, digits, _ and dots, so no app matches it.",
                hint: "Use the applicationId from the app's build.gradle.")
        } else if segments.contains(where: \.isEmpty) {
            context.report(AndroidFinding.packageNameInvalid, namePath, member.value.position,
                "The package name \(JSONStringLiteral.quoted(name)) has an empty segment (a leading, trailing or double dot), so no app matches it.",
                hint: "Use the applicationId from the app's build.gradle.")
        } else if segments.count < 2 || segments.contains(where: { !isLetter($0.first ?? 0) }) {
            context.report(AndroidFinding.packageNameNonstandard, namePath, member.value.position,
                "The package name \(JSONStringLiteral.quoted(name)) is not a valid application ID (at least two segments, each starting with a letter).",
                hint: "Check it against the applicationId in the app's build.gradle.")
        }
        return name
    }

    private static func readFingerprints(_ target: JSONValue, _ path: JSONPath, _ context: inout ReadContext,
                                         valid: inout Bool) -> [String]? {
        let hint = "Copy the SHA-256 certificate fingerprint from Play Console › App integrity › App signing."
        guard let member = context.required("sha256_cert_fingerprints", of: target, path, valid: &valid, AndroidFinding.fingerprintsMissing,
            "The android_app target has no \"sha256_cert_fingerprints\"; Google drops the statement.", hint: hint) else { return nil }
        let listPath = path.appending("sha256_cert_fingerprints")
        guard case .array(let items) = member.value.kind, !items.isEmpty else {
            valid = false
            let what = member.value.stringValue != nil ? "a string, but it must be an array of fingerprints (even for one)"
                : member.value.typeDescription == "an array" ? "empty" : "\(member.value.typeDescription), not an array"
            context.report(AndroidFinding.fingerprintsMissing, listPath, member.value.position,
                "\"sha256_cert_fingerprints\" is \(what); Google drops the statement.", hint: hint)
            return nil
        }
        var fingerprints: [String] = []
        var seen = Set<String>()
        for (i, item) in items.enumerated() {
            let itemPath = listPath.appending(i)
            guard let text = item.stringValue else {
                valid = false
                context.report(AndroidFinding.fingerprintMalformed, itemPath, item.position,
                    "Fingerprint \(i + 1) is \(item.typeDescription), not a string; Google drops the statement.", hint: hint)
                continue
            }
            switch Fingerprint.classify(text) {
            case .valid:
                if Fingerprint.isPlaceholder(text) {
                    context.report(AndroidFinding.fingerprintPlaceholder, itemPath, item.position,
                        "The fingerprint \(text) has every octet equal: a placeholder, not a real signing key, so no installed app matches it.",
                        hint: hint)
                }
                if !seen.insert(text).inserted {
                    context.report(AndroidFinding.fingerprintDuplicate, itemPath, item.position,
                        "The fingerprint \(text) is listed twice for this app.", hint: "Remove the second copy.")
                }
                fingerprints.append(text)
            case .lowercase:
                valid = false
                context.report(AndroidFinding.fingerprintLowercase, itemPath, item.position,
                    "The fingerprint is in lower case; Google refuses it and drops the statement (AOSP devices upper-case it first, so it may work on some devices only).",
                    hint: "Write it in upper case: \(text.uppercased()).")
            case .placeholder:
                valid = false
                context.report(AndroidFinding.fingerprintPlaceholder, itemPath, item.position,
                    "The fingerprint \(JSONStringLiteral.quoted(text)) is a placeholder, not a fingerprint (an unset variable in the build?); Google drops the statement.",
                    hint: "Inject the real SHA-256 fingerprint when the file is generated.")
            case .malformed(let reason, let fix):
                valid = false
                context.report(AndroidFinding.fingerprintMalformed, itemPath, item.position,
                    "The fingerprint \(JSONStringLiteral.quoted(text)) \(reason); Google drops the statement.", hint: fix ?? hint)
            }
        }
        return valid ? fingerprints : nil
    }

    // MARK: web

    private static func readSite(_ target: JSONValue, _ path: JSONPath, _ context: inout ReadContext,
                                 valid: inout Bool) -> StatementTarget? {
        guard let member = context.required("site", of: target, path, valid: &valid, AndroidFinding.webSiteMissing,
            "The web target has no \"site\"; Google drops the statement.", hint: "Add \"site\": \"https://example.com\".") else { return nil }
        let sitePath = path.appending("site")
        guard let text = context.string("site", member, sitePath, valid: &valid, AndroidFinding.webSiteInvalid,
                                        hint: "Write \"site\": \"https://example.com\".") else { return nil }
        switch WebOrigin.parse(text, siteOnly: true) {
        case .failure(let problem):
            valid = false
            context.report(AndroidFinding.webSiteInvalid, sitePath, member.value.position,
                "The site \(JSONStringLiteral.quoted(text)) \(problem.phrase); Google drops the statement.",
                hint: "Write the site as https://host or https://host:port.")
            return nil
        case .success(let origin):
            if origin.scheme == "http" {
                context.report(AndroidFinding.webSiteInsecure, sitePath, member.value.position,
                    "The site \(JSONStringLiteral.quoted(text)) is plain http: it is a different asset from its https form.",
                    hint: "Use https:// unless the site really serves over http.")
            }
            return .web(site: origin.normalizedSite)
        }
    }
}

/// The SHA-256 certificate fingerprint as Google wants it: 32 upper-case hex octets joined by colons.
enum Fingerprint {
    enum Shape: Equatable {
        case valid, lowercase, placeholder
        case malformed(String, fix: String?)
    }

    static func classify(_ text: String) -> Shape {
        let bytes = Array(text.utf8)
        // Bytes, not Characters: this runs for every fingerprint of every statement.
        func isUpperHex(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x41...0x46).contains(b) }
        func isHex(_ b: UInt8) -> Bool { isUpperHex(b) || (0x61...0x66).contains(b) }
        /// n octets: 3n - 1 bytes, hex pairs separated by colons.
        func octets(_ digit: (UInt8) -> Bool) -> Int? {
            guard (bytes.count + 1) % 3 == 0 else { return nil }
            for (i, byte) in bytes.enumerated() {
                if i % 3 == 2 { if byte != UInt8(ascii: ":") { return nil } } else if !digit(byte) { return nil }
            }
            return (bytes.count + 1) / 3
        }
        if bytes.count == 95, octets(isUpperHex) == 32 { return .valid }
        if bytes.count == 95, octets(isHex) == 32 { return .lowercase }
        let folded = text.uppercased()
        if ["${", "XX:", "REPLACE", "SHA256", "SHA-256", "YOUR", "<"].contains(where: { folded.contains($0) }) { return .placeholder }
        if text.isEmpty { return .malformed("is empty", fix: nil) }
        if let count = octets(isHex) {
            return count == 20
                ? .malformed("has 20 octets: a SHA-1 fingerprint", fix: "Use the SHA-256 fingerprint (32 octets), not the SHA-1 one.")
                : .malformed("has \(count) octets instead of 32", fix: nil)
        }
        if bytes.count == 64, bytes.allSatisfy(isHex) {
            let pairs = stride(from: 0, to: 64, by: 2).map { String(decoding: bytes[$0..<$0 + 2], as: UTF8.self) }
            return .malformed("has no colons between the octets", fix: "Write it as \(pairs.joined(separator: ":").uppercased()).")
        }
        return .malformed("is not 32 hex octets joined by colons (AA:BB:…)", fix: nil)
    }

    /// Every octet equal (00:00:…, AA:AA:…): a value someone typed in place of the real key.
    static func isPlaceholder(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 95 else { return false }
        return stride(from: 3, to: 95, by: 3).allSatisfy { bytes[$0] == bytes[0] && bytes[$0 + 1] == bytes[1] }
    }
}
