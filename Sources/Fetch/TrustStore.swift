import Foundation

/// Which roots a transfer trusts: the system's (preferably as a hashed directory) plus, for tests
/// and staging, one extra CA file. Decided once per `Fetcher`.
struct TrustStore {
    var caFile: String?
    var caPath: String?
    /// Kept alive for as long as transfers may read it.
    var bundle: CABundle?

    init(_ configuration: FetchConfiguration) throws(FetchSetupError) {
        if let extra = configuration.extraCAFile {
            guard let pem = FileManager.default.contents(atPath: extra),
                  String(decoding: pem, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
                throw FetchSetupError(message: "cannot read a PEM certificate from the CA file \(extra)")
            }
        }
        if let directory = configuration.systemCAPath, Self.isHashedDirectory(directory) {
            caPath = directory
            caFile = configuration.extraCAFile
        } else if let extra = configuration.extraCAFile {
            let combined = try CABundle(system: configuration.systemCAFile, extra: extra)
            bundle = combined
            caFile = combined.path
        }
    }

    /// True when `directory` holds OpenSSL's `<hash>.0` links (what `update-ca-certificates` makes).
    static func isHashedDirectory(_ directory: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
        return names.contains { name in
            let parts = name.split(separator: ".")
            return parts.count == 2 && parts[0].count == 8 && parts[0].allSatisfy(\.isHexDigit) && parts[1].allSatisfy(\.isNumber)
        }
    }
}
