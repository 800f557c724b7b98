import Registry
import Store
import Vocabulary

/// Turns the register/edit form into a `Registration` for `DomainRegistry`, and the registry's
/// refusals back into the form model: a message beside every refused field, everything that was
/// typed kept.
extension Registration {
    /// The form always manages the domain's own Android apps (an empty list removes them).
    func withAndroidApps(_ apps: [AndroidAppEntry]) -> Registration {
        var r = self
        r.androidApps = apps
        return r
    }
}

enum RegistrationInput {
    struct Fields {
        var host: String
        /// The filled app-ID rows, in order: what is registered.
        var appIDs: [(service: String, appID: String)]
        /// Every app-ID row as sent, empty ones included (their service too), to show again on a
        /// refusal; `appIDRows[i]` is the row of `appIDs[i]`, where its message goes.
        var sentAppIDRows: [(service: String, appID: String)] = []
        var appIDRows: [Int] = []
        var watched: [(url: String, expect: String, android: String)]
        var intervalMinutes: String
        var badge: Bool
        /// As sent; nil when the form had no platforms field (the registry then keeps "both").
        var platforms: String?
        var android: [(package: String, fingerprints: String)] = []
    }

    static func fields(from form: FormData) -> Fields {
        let ids = form.all("appid"), services = form.all("service")
        let sentRows = ids.enumerated().map { i, id in (service: i < services.count ? services[i] : "applinks", appID: id) }
        var apps: [(String, String)] = []
        var appRows: [Int] = []
        for (i, row) in sentRows.enumerated() where !row.appID.trimmingCharacters(in: .whitespaces).isEmpty {
            apps.append(row)
            appRows.append(i)
        }
        let urls = form.all("url"), expects = form.all("expect"), androids = form.all("android_expect")
        var watched: [(String, String, String)] = []
        for (i, url) in urls.enumerated() where !url.trimmingCharacters(in: .whitespaces).isEmpty {
            watched.append((url, i < expects.count ? expects[i] : "", i < androids.count ? androids[i] : ""))
        }
        let packages = form.all("package"), prints = form.all("fingerprints")
        var android: [(String, String)] = []
        for (i, package) in packages.enumerated() {
            let fingerprints = i < prints.count ? prints[i] : ""
            if !(package.trimmingCharacters(in: .whitespaces).isEmpty && fingerprints.trimmingCharacters(in: .whitespaces).isEmpty) {
                android.append((package, fingerprints))
            }
        }
        return Fields(host: form["host"] ?? "", appIDs: apps, sentAppIDRows: sentRows, appIDRows: appRows, watched: watched,
                      intervalMinutes: form["interval"] ?? "", badge: form["badge"] == "on", platforms: form["platforms"], android: android)
    }

    static func registration(_ f: Fields) -> Registration {
        // The form always sends one of the offered intervals; 0 is never offered, so an unreadable
        // value is refused like any other that is not.
        Registration(host: f.host, appIDs: f.appIDs.map { .init(service: $0.service, appID: $0.appID) },
                     watchedURLs: f.watched.map { .init(url: $0.url, expect: $0.expect, android: $0.android) },
                     intervalMinutes: Int(f.intervalMinutes) ?? 0, badge: f.badge, platforms: f.platforms)
            .withAndroidApps(f.android.map { AndroidAppEntry(package: $0.package, typedFingerprints: $0.fingerprints) })
    }

    /// The form again, as typed, with the registry's messages beside their fields.
    static func model(_ f: Fields, errors: [RegistrationField: String], editing: DomainRecord?) -> RegisterFormModel {
        var model = RegisterFormModel()
        model.editing = editing?.id
        model.host = editing?.displayName ?? f.host
        model.badge = f.badge
        // A word the form does not offer is refused beside the field; the list shows its default under the message.
        model.platforms = f.platforms.flatMap(WatchedPlatforms.init(rawValue:)) ?? .both
        model.intervalMinutes = Int(f.intervalMinutes) ?? 60
        // Every row as sent, the empty ones with the service they had: dropping them made the form
        // add a fresh row in their place, its service reset to the first option.
        model.appIDs = f.sentAppIDRows.map { (selectedOption(forService: $0.service), $0.appID) }
        model.watched = f.watched
        model.android = f.android
        model.errors = Dictionary(errors.map { (formKey($0.key, appIDRows: f.appIDRows), $0.value) }, uniquingKeysWith: { first, _ in first })
        return model
    }

    /// The option a row's service list shows for what was sent. The list offers only the four
    /// services; a word it does not offer came from a hand-made request, and the registry refuses it
    /// with a message beside that row, so the list shows its first option under the message.
    static func selectedOption(forService typed: String) -> Service {
        Service.allCases.first { $0.rawValue == typed } ?? .applinks
    }

    /// The form's name for a field (the `err-…` id beside it). The registry counts filled app-ID rows;
    /// `appIDRows` maps each to the row of the form it came from.
    static func formKey(_ field: RegistrationField, appIDRows: [Int] = []) -> String {
        switch field {
        case .host: "host"
        case .interval: "interval"
        case .platforms: "platforms"
        case .service(let i), .appID(let i): "appid.\(i < appIDRows.count ? appIDRows[i] : i)"
        case .watchedURL(let i): "url.\(i)"
        case .expectation(let i): "expect.\(i)"
        case .androidExpectation(let i): "android_expect.\(i)"
        case .androidPackage(let i): "package.\(i)"
        case .androidFingerprints(let i): "fingerprints.\(i)"
        }
    }
}
