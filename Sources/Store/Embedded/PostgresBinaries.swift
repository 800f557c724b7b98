import Foundation

/// Where initdb and pg_ctl live. Debian keeps them in /usr/lib/postgresql/<major>/bin and off PATH,
/// so both places are searched; an existing cluster's major version wins (its files only open with
/// the same major), otherwise the highest installed one.
struct PostgresBinaries {
    let directory: String

    var initdb: String { directory + "/initdb" }
    var pgCtl: String { directory + "/pg_ctl" }

    /// `AASA_MONITOR_PG_BIN` (a directory) overrides the search.
    static func locate(clusterMajorVersion: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                       versionRoot: String = "/usr/lib/postgresql") throws -> PostgresBinaries {
        var searched: [String] = []
        var candidates: [String] = []
        if let override = environment["AASA_MONITOR_PG_BIN"], !override.isEmpty {
            candidates.append(override)
        }
        let versioned = installedVersionDirectories(root: versionRoot)
        if let major = clusterMajorVersion, let match = versioned.first(where: { $0.major == major }) {
            candidates.append(match.directory)
        }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        candidates += versioned.map(\.directory)
        for directory in candidates {
            searched.append(directory)
            let binaries = PostgresBinaries(directory: directory)
            if FileManager.default.isExecutableFile(atPath: binaries.initdb),
               FileManager.default.isExecutableFile(atPath: binaries.pgCtl) {
                return binaries
            }
        }
        throw EmbeddedPostgresError.binariesNotFound(searched: searched.isEmpty ? ["PATH", "/usr/lib/postgresql/*/bin"] : searched)
    }

    /// /usr/lib/postgresql/<major>/bin, highest major first (numeric, so 16 sorts above 9.6).
    private static func installedVersionDirectories(root: String) -> [(major: String, directory: String)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return entries
            .filter { Double($0) != nil }
            .sorted { (Double($0) ?? 0) > (Double($1) ?? 0) }
            .map { ($0, "\(root)/\($0)/bin") }
    }
}
