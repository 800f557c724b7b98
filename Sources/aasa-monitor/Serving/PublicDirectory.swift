import Foundation

/// Finds Public/ (CSS, JS, images) the same way as Migrations/: env AASA_MONITOR_PUBLIC_DIR, next
/// to the executable or one of its ancestors (the checkout, for swift run and scripts/run; /app in
/// the Docker image), or the current directory.
enum PublicDirectory {
    static func locate() -> String? {
        if let configured = ProcessInfo.processInfo.environment["AASA_MONITOR_PUBLIC_DIR"], !configured.isEmpty {
            return configured
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<8 {
            let candidate = directory.appendingPathComponent("Public").path
            if isDirectory(candidate) && isDirectory(directory.appendingPathComponent("Migrations").path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let here = FileManager.default.currentDirectoryPath + "/Public"
        return isDirectory(here) ? here : nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}
