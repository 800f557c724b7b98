import Fetch
import Store
import Vocabulary

/// Turns the register/edit form (or an API body) into a `DomainDraft`, or the form model with a
/// message beside every field that was refused, keeping everything that was typed.
enum RegistrationInput {
    struct Fields {
        var host: String
        var appIDs: [(service: String, appID: String)]
        var watched: [(url: String, expect: String)]
        var intervalMinutes: String
        var badge: Bool
    }

    static func fields(from form: FormData) -> Fields {
        let ids = form.all("appid"), services = form.all("service")
        var apps: [(String, String)] = []
        for (i, id) in ids.enumerated() where !id.trimmingCharacters(in: .whitespaces).isEmpty {
            apps.append((i < services.count ? services[i] : "applinks", id))
        }
        let urls = form.all("url"), expects = form.all("expect")
        var watched: [(String, String)] = []
        for (i, url) in urls.enumerated() where !url.trimmingCharacters(in: .whitespaces).isEmpty {
            watched.append((url, i < expects.count ? expects[i] : ""))
        }
        return Fields(host: form["host"] ?? "", appIDs: apps, watched: watched, intervalMinutes: form["interval"] ?? "",
                      badge: form["badge"] == "on")
    }

    /// Validates everything at once so every mistake is shown in one round trip.
    static func validate(_ f: Fields, editing: (host: String, display: String)?, configuration: WebConfiguration)
        -> (draft: DomainDraft?, model: RegisterFormModel) {
        var model = RegisterFormModel()
        model.host = editing?.display ?? f.host
        model.badge = f.badge
        model.intervalMinutes = Int(f.intervalMinutes) ?? 60
        var errors: [String: String] = [:]
        var ascii = "", display = "", wildcard = false
        if let editing {
            ascii = editing.host
            display = editing.display
        } else {
            do {
                let host = try HostName(f.host)
                ascii = host.ascii
                display = host.unicode
                wildcard = host.isWildcard
                if configuration.resolveOnRegister, let refusal = addressRefusal(host.ascii, configuration: configuration) {
                    errors["host"] = refusal
                }
            } catch {
                errors["host"] = error.message
            }
        }
        var appIDs: [AppIDExpectation] = []
        for (i, a) in f.appIDs.enumerated() {
            let service = AppService(rawValue: a.service) ?? .applinks
            model.appIDs.append((service, a.appID))
            do {
                appIDs.append(AppIDExpectation(service: service.rawValue, appID: try AppID(typed: a.appID).text))
            } catch {
                errors["appid.\(i)"] = error.message
            }
        }
        var watched: [WatchedURLExpectation] = []
        for (i, w) in f.watched.enumerated() {
            model.watched.append((w.url, w.expect))
            let url = w.url.trimmingCharacters(in: .whitespaces)
            if let problem = watchedURLProblem(url, host: ascii, display: display) { errors["url.\(i)"] = problem }
            let expect = w.expect.trimmingCharacters(in: .whitespaces)
            var expected: String?
            if expect.isEmpty || expect.lowercased() == "browser" {
                expected = nil
            } else {
                do {
                    expected = try AppID(expect).text
                } catch {
                    errors["expect.\(i)"] = "Write an app ID or \"browser\". " + error.message
                }
            }
            watched.append(WatchedURLExpectation(url: url, expectedAppID: expected))
        }
        guard let minutes = Int(f.intervalMinutes), RegisterFormModel.intervals.contains(where: { $0.minutes == minutes }) else {
            errors["interval"] = "Choose one of the offered intervals."
            model.errors = errors
            return (nil, model)
        }
        model.errors = errors
        guard errors.isEmpty else { return (nil, model) }
        return (DomainDraft(host: ascii, displayName: display, wildcard: wildcard, intervalSeconds: minutes * 60,
                            badgeEnabled: f.badge, appIDs: appIDs, watchedURLs: watched), model)
    }

    /// Resolves the name and refuses it when every address is one the crawler may not contact,
    /// naming the address and its range.
    static func addressRefusal(_ host: String, configuration: WebConfiguration) -> String? {
        let policy = OutboundPolicy(allowPrivateAddresses: configuration.allowPrivateAddresses)
        switch SystemResolver().resolve(host) {
        case .failure(let e):
            return "\(host) does not resolve (\(e.message)); check the spelling, or register it once its DNS is in place."
        case .success(let addresses):
            let refusals = addresses.compactMap { a in policy.refusal(for: a).map { (a, $0) } }
            if let (address, why) = refusals.first, refusals.count == addresses.count {
                return "\(host) resolves to \(address), a \(why) address; the monitor only fetches from public addresses."
            }
            return nil
        }
    }

    static func watchedURLProblem(_ url: String, host: String, display: String) -> String? {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            return "Write the whole URL, starting with https://"
        }
        let afterScheme = url.drop { $0 != "/" }.dropFirst(2)
        let urlHost = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
        guard !host.isEmpty else { return nil }
        let matches = urlHost == host || urlHost == display.lowercased() || urlHost.hasSuffix("." + host)
        return matches ? nil : "This URL is not on \(display.isEmpty ? host : display): a domain's file only decides its own URLs."
    }
}
