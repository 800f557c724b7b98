import Foundation
import Synchronization

/// Writes a file the fleet's nginx serves the way a site deploys one: readable by nginx's workers,
/// and modified an hour ago, one second later than any file deployed before it in this process.
///
/// Why the time matters: nginx's ETag is the file's modification second and its size, and the
/// monitor trusts a strong ETag only when Last-Modified is strictly before the response's Date. A
/// file written with the real time is modified in the second it is first served, so whether the
/// clock ticked between writing and checking would decide whether its ETag is trusted, and a
/// same-size rewrite within one second would keep the old ETag. Hour-old, strictly increasing times
/// give every version a trusted ETag of its own from the first check, whatever the load.
/// (`TestTLSFleet.serve` keeps real times: a file modified while served is what some tests make.)
public enum DeployedFile {
    private static let deployments = Mutex(0)

    /// The next deployment's modification time.
    public static func nextModificationTime() -> Date {
        let count = deployments.withLock { value -> Int in value += 1; return value }
        return Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded(.down) + Double(count))
    }

    /// Writes `bytes` to `url`, creating its folders.
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        // nginx's workers run as nobody when the tests run as root: folders 0755, files 0644.
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try Data(bytes).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644, .modificationDate: nextModificationTime()],
                                              ofItemAtPath: url.path)
    }
}

extension TestTLSFleet {
    /// Deploys `text` at `path` of nginx's site `site`: `_default` answers every unknown name under
    /// the fleet's domain, a host's own folder is also what the fake Google API reads.
    public func deploy(_ text: String, at path: String, site: String = "_default") throws {
        try DeployedFile.write(Array(text.utf8), to: directory.appendingPathComponent("www/\(site)\(path)"))
    }
}
