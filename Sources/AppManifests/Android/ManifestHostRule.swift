import AASA
import Foundation

/// The rules for `android:host` in a filter Android verifies: a bare host name, optionally with a
/// leading `*.`; what a manifest must not hold there (a URL, a port, a placeholder Gradle fills in).
enum ManifestHostRule {
    struct Problem: Error {
        var reason: String
    }

    static func read(_ raw: String) -> Result<ManifestHost, Problem> {
        let text = raw.trimmingCharacters(in: .whitespaces)
        func refuse(_ reason: String) -> Result<ManifestHost, Problem> { .failure(Problem(reason: reason)) }
        if text.isEmpty { return refuse("android:host is empty; write the host name, e.g. example.com.") }
        if text.contains("${") {
            return refuse("android:host=\"\(raw)\" is a Gradle placeholder; pass the merged manifest (build/intermediates/merged_manifest/…/AndroidManifest.xml) or write the host.")
        }
        if text.hasPrefix("@") {
            return refuse("android:host=\"\(raw)\" refers to a resource; write the host name itself in the manifest you pass.")
        }
        if text.contains("://") {
            return refuse("android:host=\"\(raw)\" contains a scheme; the scheme goes in android:scheme and the host alone in android:host.")
        }
        if text.contains("/") {
            return refuse("android:host=\"\(raw)\" contains a path; paths go in android:path, android:pathPrefix or android:pathPattern.")
        }
        if text == "*" {
            return refuse("android:host=\"*\" takes links to every site, and no assetlinks.json can verify that; name the hosts.")
        }
        if text.hasPrefix("[") || text.contains(":") {
            return refuse("android:host=\"\(raw)\" contains a port or an IPv6 address; the port goes in android:port, and App Links need a host name.")
        }
        let lower = text.lowercased()
        let wildcard = lower.hasPrefix("*.")
        let body = wildcard ? String(lower.dropFirst(2)) : lower
        if body.isEmpty || body.contains("*") {
            return refuse("android:host=\"\(raw)\" has a * other than a leading \"*.\"; write *.example.com or the host itself.")
        }
        // A host with a character no host name has can never match a link's host, and Android
        // cannot verify it (found by fuzzing: "*.example.#om" was taken as a verified host).
        if let bad = body.unicodeScalars.first(where: { !EntitlementValidator.isHostNameScalar($0) }) {
            return refuse("android:host=\"\(raw)\" contains U+\(String(bad.value, radix: 16, uppercase: true)), which a host name cannot have; use letters, digits, hyphens and dots, e.g. example.com.")
        }
        let labels = body.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count == 4, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
            return refuse("android:host=\"\(raw)\" is an IP address; App Links verify host names over HTTPS.")
        }
        if labels.contains(where: \.isEmpty) {
            return refuse("android:host=\"\(raw)\" has an empty label (two dots, or a dot at an end).")
        }
        return .success(ManifestHost(host: body, isWildcard: wildcard))
    }
}
