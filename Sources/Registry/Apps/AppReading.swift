import AppManifests
import Foundation
import Monitor
import Store
import Vocabulary

/// The pure half of `AppRegistry.plan`: an app's typed fields and files read into the app it
/// describes — its IDs, its links per platform, its watched URLs and its name — with every problem
/// found on the way, in the order the form shows the fields. Touches no store: whether a domain is
/// registered yet is the registry's to ask.
struct AppReading {
    var problems: [AppProblem] = []
    /// Notes on accepted entries, and the entries read but not registered, each with why.
    var notes: [String] = [], ignored: [String] = []

    var appleIDs: [String] = []
    /// Apple's entries, typed and from the `.entitlements` file, before they become links.
    var associated: [AssociatedDomain] = []
    var package: String?
    var androidHosts: [(host: String, wildcard: Bool)] = []
    var manifestURLs: [String] = []
    var fingerprints: [AppFingerprint] = []
    var links: [AppLinkDraft] = []
    var watched: [AppWatchedURLDraft] = []
    var name = ""

    /// Reads in the order a later step needs: a manifest's package is compared with the typed one,
    /// links need both platforms' domains, watched URLs need the links, the name falls back on the IDs.
    init(_ r: AppRegistration, entitlements: [UInt8]?, manifest: [UInt8]?) {
        readAppleIDs(r.appleAppIDs)
        readAppleDomains(typed: r.appleDomains, file: entitlements)
        readAndroidPackage(r.androidPackage)
        readAndroidHosts(r.androidHosts)
        if let manifest { readManifest(manifest) }
        readFingerprints(r.fingerprints)
        linkDomains()
        requireIdentity()
        watchURLs(r)
        nameApp(r.name)
    }

    /// What will be stored, once `problems` is empty.
    var draft: AppDraft {
        AppDraft(name: name, appleAppIDs: appleIDs, androidPackage: package, fingerprints: fingerprints,
                 links: links, watchedURLs: watched)
    }

    private mutating func readAppleIDs(_ typed: [String]) {
        for (i, text) in typed.enumerated() where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                let id = try AppID(typed: text).text
                if !appleIDs.contains(id) { appleIDs.append(id) }
            } catch { problems.append(AppProblem(.appleAppID(i), error.message)) }
        }
    }

    /// Apple: the typed entries and the file's, each by the entitlement rules.
    private mutating func readAppleDomains(typed: [String], file entitlements: [UInt8]?) {
        if typed.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            do {
                let typed = try EntitlementsReader.read(entries: typed)
                associated += typed.domains
                ignored += typed.ignored.map { "\($0.entitlement): \($0.reason)" }
            } catch {
                problems += error.problems.map { AppProblem(.appleDomains(line: $0.line), $0.reason) }
            }
        }
        if let entitlements {
            do {
                let file = try EntitlementsReader.read(entitlements)
                associated += file.domains
                ignored += file.ignored.map { "\($0.entitlement): \($0.reason)" }
                for id in file.appIDs where !appleIDs.contains(id.text) { appleIDs.append(id.text) }
            } catch {
                problems += error.problems.map { AppProblem(.entitlementsFile(line: $0.line), $0.reason) }
            }
        }
    }

    private mutating func readAndroidPackage(_ typed: String) {
        let typedPackage = typed.trimmingCharacters(in: .whitespaces)
        if !typedPackage.isEmpty {
            do { package = try AndroidPackage(typed: typedPackage).text } catch { problems.append(AppProblem(.androidPackage, error.message)) }
        }
    }

    private mutating func readAndroidHosts(_ typed: [String]) {
        for (i, text) in typed.enumerated() where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                let host = try HostName(text)
                androidHosts.append((host.unicode, host.isWildcard))
            } catch { problems.append(AppProblem(.androidHost(i), error.message)) }
        }
    }

    /// Android: the manifest's verified hosts and watched paths; its package fills in a package not
    /// typed, and must match one typed.
    private mutating func readManifest(_ manifest: [UInt8]) {
        do {
            let read = try AndroidManifestReader.read(manifest)
            androidHosts += read.verifiedHosts.map { ($0.host, $0.isWildcard) }
            ignored += read.unverifiedHosts.map {
                "\($0): its intent filter has no android:autoVerify=\"true\", so Android never checks assetlinks.json for it"
            }
            manifestURLs = read.watchedURLs
            switch (package, read.package) {
            case (nil, let fromFile?):
                do { package = try AndroidPackage(typed: fromFile).text } catch {
                    problems.append(AppProblem(.manifestFile(line: nil), "The manifest's package: \(error.message)"))
                }
            case (let typed?, let fromFile?) where typed != fromFile:
                problems.append(AppProblem(.androidPackage,
                    "The manifest's package is \(fromFile), not \(typed); the merged manifest of a build has the applicationId."))
            default: break
            }
        } catch {
            problems += error.problems.map { AppProblem(.manifestFile(line: $0.line), $0.reason) }
        }
    }

    private mutating func readFingerprints(_ typed: [FingerprintEntry]) {
        for (i, entry) in typed.enumerated() where !entry.fingerprint.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let role = SigningKeyRole(rawValue: entry.role) else {
                problems.append(AppProblem(.fingerprint(i), "Unknown key \"\(entry.role)\"; use app-signing, upload or other."))
                continue
            }
            do {
                let text = try CertificateFingerprint(typed: entry.fingerprint).text
                if !fingerprints.contains(where: { $0.fingerprint == text }) { fingerprints.append(AppFingerprint(fingerprint: text, role: role)) }
            } catch { problems.append(AppProblem(.fingerprint(i), error.message)) }
        }
    }

    /// Links, each domain under its registered spelling: Apple's entries, then Android's hosts.
    private mutating func linkDomains() {
        for domain in associated {
            do {
                let host = try HostName(domain.displayHost)
                notes += domain.notes.filter { $0.severity != .error }.map { "\(domain.entitlement): \($0.message)" }
                links.append(AppLinkDraft(domain: AppDomainKey(host: host.ascii, displayName: host.unicode, wildcard: host.isWildcard),
                                          platform: .apple, service: domain.service, developerMode: domain.modes.contains(.developer),
                                          managedMode: domain.modes.contains(.managed), declaredAs: domain.entitlement))
            } catch {
                problems.append(AppProblem(.appleDomains(line: domain.line), "\(domain.entitlement): \(error.message)"))
            }
        }
        for (host, wildcard) in androidHosts {
            guard let spelled = try? HostName(wildcard ? "*.\(host)" : host) else { continue }
            let key = AppDomainKey(host: spelled.ascii, displayName: spelled.unicode, wildcard: spelled.isWildcard)
            if !links.contains(where: { $0.platform == .android && $0.domain == key }) {
                links.append(AppLinkDraft(domain: key, platform: .android, service: .applinks, declaredAs: spelled.description))
            }
        }
    }

    /// Each platform the app claims domains on needs its app's identity there (Apple's app ID,
    /// Android's package), and the app needs some identity and some domain at all.
    private mutating func requireIdentity() {
        if !appleIDs.isEmpty || links.contains(where: { $0.platform == .apple }) || package != nil || !fingerprints.isEmpty
            || links.contains(where: { $0.platform == .android }) || !problems.isEmpty {
            if appleIDs.isEmpty, links.contains(where: { $0.platform == .apple }), !problems.contains(where: { if case .appleAppID = $0.field { true } else { false } }) {
                problems.append(AppProblem(.appleAppID(0),
                    "The app claims Apple domains but names no app ID (an .entitlements file in a project has none until Xcode signs the app): write TEAMID.bundle.id."))
            }
            if package == nil, links.contains(where: { $0.platform == .android }) || !fingerprints.isEmpty,
               !problems.contains(where: { $0.field == .androidPackage }) {
                problems.append(AppProblem(.androidPackage, "The app claims Android hosts or signing keys but names no package: write its applicationId."))
            }
        } else {
            problems.append(AppProblem(.app, "Give an Apple app ID or an Android package, and the domains the app claims."))
        }
        if problems.isEmpty, links.isEmpty {
            problems.append(AppProblem(.app, "The app claims no domain: add Associated Domains entries, Android hosts, or import its files."))
        }
    }

    /// Watched URLs, each on a domain the app claims: typed ones on both platforms; the typed
    /// Android-only ones and the manifest's paths on Android alone (a manifest says nothing of
    /// what iOS opens). A URL given twice keeps its first platforms.
    private mutating func watchURLs(_ r: AppRegistration) {
        let given: [(text: String, platforms: WatchedPlatforms, field: AppField?)] =
            r.watchedURLs.enumerated().map { ($1, .both, .watchedURL($0)) }
            + r.androidWatchedURLs.enumerated().map { ($1, .android, .androidWatchedURL($0)) }
            + manifestURLs.map { ($0, .android, nil) }
        for entry in given {
            let url = entry.text.trimmingCharacters(in: .whitespaces)
            guard !url.isEmpty, !watched.contains(where: { $0.url == url }) else { continue }
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
                problems.append(AppProblem(entry.field ?? .manifestFile(line: nil), "Write the whole URL, starting with https://"))
                continue
            }
            let host = ReleaseGate.urlHost(url)
            let ascii = (try? HostName(host).ascii) ?? host
            let claimed = links.map(\.domain)
            if let exact = claimed.first(where: { !$0.wildcard && $0.host == ascii }) {
                watched.append(AppWatchedURLDraft(url: url, domain: exact, platforms: entry.platforms))
            } else if let parent = claimed.filter({ $0.wildcard && ascii.hasSuffix("." + $0.host) }).max(by: { $0.host.count < $1.host.count }) {
                watched.append(AppWatchedURLDraft(url: url, domain: parent, platforms: entry.platforms))
            } else if let field = entry.field {
                problems.append(AppProblem(field, "\(host) is not a domain this app claims, so no file of the app decides \(url)."))
            }
        }
    }

    /// The typed name, else the first app ID's bundle ID, else the package.
    private mutating func nameApp(_ typed: String) {
        name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { name = appleIDs.first.flatMap { try? AppID($0) }.map { String($0.bundleID) } ?? package ?? "" }
        if name.count > 200 { problems.append(AppProblem(.name, "Keep the name under 200 characters.")) }
        if name.isEmpty, problems.isEmpty { problems.append(AppProblem(.name, "Name the app.")) }
    }
}
