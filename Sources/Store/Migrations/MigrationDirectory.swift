import Foundation

/// Finds `Migrations/`. The binary may run from `swift run` or `swift test` (under .build/ inside the
/// checkout), from scripts/run's release build, or from /app in the Docker image (files copied
/// beside it), so several places are searched in order:
/// an explicit path, `AASA_MONITOR_MIGRATIONS_DIR`, every ancestor of the executable, the current
/// directory and its ancestors, the checkout this file was compiled in, `/usr/share/aasa-monitor`.
public enum MigrationDirectory {
    public static func locate(explicit: String? = nil,
                              environment: [String: String] = ProcessInfo.processInfo.environment,
                              compiledIn sourceFile: String = #filePath) throws -> String {
        var candidates: [String] = []
        if let explicit, !explicit.isEmpty { candidates.append(explicit) }
        if let configured = environment["AASA_MONITOR_MIGRATIONS_DIR"], !configured.isEmpty { candidates.append(configured) }
        if explicit == nil || explicit?.isEmpty == true {
            let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            candidates += ancestors(of: executable.deletingLastPathComponent()).map { $0 + "/Migrations" }
            candidates += ancestors(of: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).map { $0 + "/Migrations" }
            // Sources/Store/Migrations/MigrationDirectory.swift → the checkout's root.
            let checkout = URL(fileURLWithPath: sourceFile).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            candidates.append(checkout.path + "/Migrations")
            candidates.append("/usr/share/aasa-monitor/Migrations")
        }
        var searched: [String] = []
        for candidate in candidates where !searched.contains(candidate) {
            searched.append(candidate)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            // An explicit or configured path that does not exist is an error, not a hint to guess.
            if candidate == explicit || candidate == environment["AASA_MONITOR_MIGRATIONS_DIR"] {
                throw MigrationError.directoryNotFound(searched: [candidate])
            }
        }
        throw MigrationError.directoryNotFound(searched: searched)
    }

    /// Loads every `*.sql` file of `directory`, sorted by number.
    public static func load(_ directory: String) throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }
        var migrations: [Migration] = []
        for name in names {
            guard let contents = FileManager.default.contents(atPath: directory + "/" + name) else {
                throw MigrationError.badFileName(name + " (unreadable)")
            }
            migrations.append(try Migration(fileName: name, contents: [UInt8](contents)))
        }
        migrations.sort { $0.version < $1.version }
        for (previous, next) in zip(migrations, migrations.dropFirst()) where previous.version == next.version {
            throw MigrationError.duplicateVersion(next.version, files: [previous.fileName, next.fileName])
        }
        return migrations
    }

    private static func ancestors(of directory: URL) -> [String] {
        var paths: [String] = []
        var current = directory.standardizedFileURL
        while true {
            paths.append(current.path)
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path || paths.count > 12 { break }
            current = parent
        }
        return paths
    }
}
