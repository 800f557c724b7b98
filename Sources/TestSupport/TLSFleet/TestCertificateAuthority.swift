import Foundation

/// A throwaway certificate authority made with `openssl` in a temp directory: issues server
/// certificates (current, expired, for other names), self-signed ones, and CMS-signed files.
public final class TestCertificateAuthority: Sendable {
    public let directory: URL
    /// The CA certificate (PEM) to pass as `--ca-file`.
    public let certificateFile: String
    private let keyFile: String

    public init(directory: URL, name: String = "aasa-monitor test CA") throws {
        self.directory = directory
        certificateFile = directory.appendingPathComponent("ca.pem").path
        keyFile = directory.appendingPathComponent("ca.key").path
        try ToolRunner.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                       "-nodes", "-keyout", keyFile, "-out", certificateFile, "-days", "30",
                                       "-subj", "/CN=\(name)"], in: directory)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("ca-db"), withIntermediateDirectories: true)
        try Data().write(to: directory.appendingPathComponent("ca-db/index.txt"))
        try Data("1000\n".utf8).write(to: directory.appendingPathComponent("ca-db/serial"))
        try Data(Self.caConfig.utf8).write(to: directory.appendingPathComponent("ca.cnf"))
    }

    /// A certificate/key pair on disk.
    public struct Issued: Sendable {
        public let certificateFile: String
        public let keyFile: String
    }

    public enum Validity: Sendable {
        case current
        /// Valid in January 2020 only: expired long ago.
        case expired
    }

    /// Issues a server certificate for `names` (first is the CN), signed by this CA.
    public func issue(_ label: String, names: [String], validity: Validity = .current) throws -> Issued {
        let key = directory.appendingPathComponent("\(label).key").path
        let csr = directory.appendingPathComponent("\(label).csr").path
        let cert = directory.appendingPathComponent("\(label).pem").path
        let san = names.map { "DNS:\($0)" }.joined(separator: ",")
        try ToolRunner.run("openssl", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                       "-keyout", key, "-out", csr, "-subj", "/CN=\(names[0])",
                                       "-addext", "subjectAltName=\(san)",
                                       "-addext", "basicConstraints=CA:FALSE",
                                       "-addext", "extendedKeyUsage=serverAuth"], in: directory)
        var arguments = ["ca", "-batch", "-config", "ca.cnf", "-cert", certificateFile, "-keyfile", keyFile,
                         "-in", csr, "-out", cert, "-notext"]
        switch validity {
        case .current: arguments += ["-days", "20"]
        case .expired: arguments += ["-startdate", "20200101000000Z", "-enddate", "20200201000000Z"]
        }
        try ToolRunner.run("openssl", arguments, in: directory)
        return Issued(certificateFile: cert, keyFile: key)
    }

    /// A certificate signed by its own key, which no trust store knows.
    public func selfSigned(_ label: String, name: String) throws -> Issued {
        let key = directory.appendingPathComponent("\(label).key").path
        let cert = directory.appendingPathComponent("\(label).pem").path
        try ToolRunner.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                       "-nodes", "-keyout", key, "-out", cert, "-days", "20", "-subj", "/CN=\(name)",
                                       "-addext", "subjectAltName=DNS:\(name)"], in: directory)
        return Issued(certificateFile: cert, keyFile: key)
    }

    /// `content` as a CMS SignedData message (DER, content attached), the way sites signed
    /// association files before iOS 9: `openssl cms -sign -nodetach -noattr -binary -outform DER`.
    public func cmsSign(_ content: [UInt8], with signer: Issued, label: String) throws -> [UInt8] {
        let input = directory.appendingPathComponent("\(label).json")
        let output = directory.appendingPathComponent("\(label).p7m")
        try Data(content).write(to: input)
        try ToolRunner.run("openssl", ["cms", "-sign", "-in", input.path, "-signer", signer.certificateFile,
                                       "-inkey", signer.keyFile, "-nodetach", "-noattr", "-binary", "-outform", "DER",
                                       "-out", output.path], in: directory)
        return [UInt8](try Data(contentsOf: output))
    }

    private static let caConfig = """
        [ca]
        default_ca = test
        [test]
        database = ca-db/index.txt
        serial = ca-db/serial
        new_certs_dir = ca-db
        default_md = sha256
        policy = any
        copy_extensions = copy
        unique_subject = no
        [any]
        commonName = supplied

        """
}
