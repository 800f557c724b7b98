import Foundation

/// The system roots plus an extra CA (a test or staging CA), written once to a private temp file.
/// curl's `CURLOPT_CAINFO` replaces the default bundle, so "in addition to" means concatenating;
/// a file (rather than a blob) lets curl cache the parsed store across transfers.
final class CABundle: Sendable {
    let path: String

    init(system: String, extra: String) throws(FetchSetupError) {
        let systemPEM = FileManager.default.contents(atPath: system) ?? Data()
        guard let extraPEM = FileManager.default.contents(atPath: extra), !extraPEM.isEmpty else {
            throw FetchSetupError(message: "cannot read the CA file \(extra)")
        }
        guard String(decoding: extraPEM, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw FetchSetupError(message: "\(extra) holds no PEM certificate")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-monitor-ca-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let file = directory.appendingPathComponent("bundle.pem")
            var combined = systemPEM
            combined.append(contentsOf: Array("\n".utf8))
            combined.append(extraPEM)
            try combined.write(to: file)
            path = file.path
        } catch {
            throw FetchSetupError(message: "cannot write the combined CA bundle: \(error)")
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}
