import Vocabulary

/// What a device says about an app's hosts: the output of `adb shell pm get-app-links [PACKAGE]`
/// (Android 12+, assetlinks-spec.md §7), pasted by the user. Pure; never throws for odd input —
/// lines it does not recognise are skipped.
///
/// ```
///   com.example.shop:
///     ID: 01234567-89ab-cdef-0123-456789abcdef
///     Signatures: [AA:BB:…]
///     Domain verification state:
///       shop.example: verified
///       www.shop.example: 1024
/// ```
public struct DeviceLinkStates: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var packageName: String
        public var host: String
        public var state: String

        public init(packageName: String, host: String, state: String) {
            self.packageName = packageName
            self.host = host
            self.state = state
        }

        /// The states Android counts as verified (AOSP's `DomainVerificationState`): the rest leave
        /// the host's links to the browser or the disambiguation dialog.
        public static let verifiedStates: Set<String> = ["verified", "approved", "migrated", "restored", "system_configured"]

        public var isVerified: Bool { Self.verifiedStates.contains(state) }

        /// What the state means, in a few words (assetlinks-spec.md §7; AOSP's verifier codes).
        public var meaning: String {
            switch state {
            case "none": "nothing recorded yet; wait and retry"
            case "denied": "denied by a shell command"
            case "legacy_failure": "rejected by a legacy verifier, reason unknown"
            case "1024": "verifier error: unknown"
            case "1025": "verifier error: legacy verifier, unsupported wildcard"
            case "1026": "verifier error: rejected by the server"
            case "1027": "verifier error: timeout"
            case "1028": "verifier error: unknown failure"
            case "1029": "verifier error: redirect"
            case "1030": "verifier error: package manager failure"
            default: (Int(state).map { $0 >= 1024 } ?? false) ? "a verifier-specific error" : "not a verified state"
            }
        }
    }

    /// Per package and host, in the output's order.
    public var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    /// Reads the output. A package header is a line ending in `:` with a package-like name and nothing
    /// after the colon; host lines are read only under its "Domain verification state:" heading.
    public static func read(_ text: String) -> DeviceLinkStates {
        var states = DeviceLinkStates()
        var package: String?
        var inStates = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = trimmed(raw)
            guard !line.isEmpty else { continue }
            if line == "Domain verification state:" {
                inStates = package != nil
                continue
            }
            guard let colon = line.lastIndex(of: ":") else { continue }
            let key = trimmed(line[..<colon]), value = trimmed(line[line.index(after: colon)...])
            if value.isEmpty, isPackageName(key) {
                package = key
                inStates = false
            } else if inStates, let package, !value.isEmpty, !key.contains(" ") {
                states.entries.append(Entry(packageName: package, host: key.lowercased(), state: value))
            } else {
                // Any other line ("User 0:", "Selection state:", …) ends the list of states.
                inStates = false
            }
        }
        return states
    }

    /// `device-not-verified` for every host of `packageName` (all packages when nil) the device does
    /// not count as verified; `host` narrows it to one host (a `*.` wildcard host as written).
    public func findings(packageName: String? = nil, host: String? = nil) -> [Finding] {
        entries.filter { entry in
            !entry.isVerified && (packageName.map { $0 == entry.packageName } ?? true) && (host.map { $0.lowercased() == entry.host } ?? true)
        }.map { entry in
            AndroidCheckFinding.deviceNotVerified.finding(at: nil,
                "On the device, \(entry.packageName) is not verified for \(entry.host): state \(entry.state) (\(entry.meaning)); "
                    + "its links open in the browser or ask which app to use.",
                hint: "Fix the other findings for this host, then run adb shell pm verify-app-links --re-verify \(entry.packageName).")
        }
    }

    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }

    static func isPackageName(_ text: String) -> Bool {
        !text.isEmpty && text.contains(".") && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
    }
}
