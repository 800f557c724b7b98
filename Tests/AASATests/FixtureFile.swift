import Foundation

/// Reads a file of Tests/AASATests/Fixtures (copied into the test bundle as a resource folder).
enum FixtureFile {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        guard let base = Bundle.module.resourceURL else { throw Missing(description: "no resource directory") }
        let url = base.appendingPathComponent("Fixtures").appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Missing(description: "fixture \(name) not found at \(url.path)")
        }
        return [UInt8](data)
    }
}
