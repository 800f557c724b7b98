import ArgumentParser
import AssetLinks
import Vocabulary

/// `--package NAME --fingerprint SHA256` (repeatable), shared by `check` and `verify-app`: the Android
/// apps a domain's assetlinks.json must verify, validated by the app form's rules (Vocabulary's
/// `AndroidPackage` and `CertificateFingerprint`). Every fingerprint applies to every package: one app
/// per run, as a CI job checks it.
struct AndroidAppOptions: ParsableArguments {
    @Option(name: .customLong("package"), help: ArgumentHelp("Android: a package the file must verify; repeatable.", valueName: "NAME"))
    var packages: [String] = []

    @Option(name: .customLong("fingerprint"), help: ArgumentHelp(
        "Android: a SHA-256 signing-certificate fingerprint each --package must be granted with; repeatable.", valueName: "SHA256"))
    var fingerprints: [String] = []

    /// Each value on its own; which package a fingerprint belongs to is the command's to check
    /// (`verify-app` takes the manifest's package when none is given).
    func validate() throws {
        _ = try expectations(defaultPackage: "placeholder.package")
    }

    /// The expectations; `defaultPackage` (a manifest's) stands in when no --package is given.
    func expectations(defaultPackage: String? = nil) throws -> [AndroidAppExpectation] {
        var keys: [String] = []
        for text in fingerprints {
            do { keys.append(try CertificateFingerprint(typed: text).text) } catch { throw ValidationError("--fingerprint \(text): \(error.message)") }
        }
        let names = packages.isEmpty ? (defaultPackage.map { [$0] } ?? []) : packages
        if !keys.isEmpty, names.isEmpty { throw ValidationError("--fingerprint needs the --package it belongs to.") }
        var apps: [AndroidAppExpectation] = []
        for text in names {
            do { apps.append(AndroidAppExpectation(packageName: try AndroidPackage(typed: text).text, fingerprints: keys)) } catch {
                throw ValidationError("--package \(text): \(error.message)")
            }
        }
        return apps
    }
}
