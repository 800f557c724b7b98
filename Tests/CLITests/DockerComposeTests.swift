import Foundation
import Testing

/// No Docker engine runs here, so the deployment files are checked for structure: the compose file
/// parsed as YAML (by python3's yaml module, from scripts/bootstrap --test), the Dockerfile read as text.
@Suite struct DockerComposeTests {
    private static let root: URL = {
        // Tests/CLITests/DockerComposeTests.swift → the checkout
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    @Test func composeRunsTheAppAgainstThePostgresServiceWithAMailCatcher() throws {
        let compose = try Self.parseYAML(Self.root.appendingPathComponent("docker-compose.yml").path)
        let services = try #require(compose["services"] as? [String: Any])
        #expect(Set(services.keys) == ["app", "postgres", "mailpit"])

        let app = try #require(services["app"] as? [String: Any])
        #expect(app["build"] as? String == ".")
        let environment = try #require(app["environment"] as? [String: Any])
        let databaseURL = try #require(environment["DATABASE_URL"] as? String)
        let url = try #require(URLComponents(string: databaseURL))
        #expect(url.scheme == "postgresql")
        #expect(url.host == "postgres")
        #expect(url.port == 5432)
        #expect(environment["AASA_MONITOR_HOST"] as? String == "0.0.0.0")
        #expect((environment["SMTP_URL"] as? String)?.hasPrefix("smtp://mailpit:") == true)
        let ports = try #require(app["ports"] as? [String])
        #expect(ports.contains { $0.hasSuffix(":8080") })
        let dependsOn = try #require(app["depends_on"] as? [String: Any])
        #expect((dependsOn["postgres"] as? [String: Any])?["condition"] as? String == "service_healthy")

        let postgres = try #require(services["postgres"] as? [String: Any])
        #expect((postgres["image"] as? String)?.hasPrefix("postgres:") == true)
        let postgresEnvironment = try #require(postgres["environment"] as? [String: Any])
        // The app's URL names the user, password and database the postgres service creates.
        #expect(postgresEnvironment["POSTGRES_USER"] as? String == url.user)
        #expect(postgresEnvironment["POSTGRES_PASSWORD"] as? String == url.password)
        #expect(postgresEnvironment["POSTGRES_DB"] as? String == String(url.path.dropFirst()))
        #expect(postgres["healthcheck"] != nil)
        let volumes = try #require(postgres["volumes"] as? [String])
        #expect(volumes.contains { $0.hasSuffix(":/var/lib/postgresql/data") })

        let mailpit = try #require(services["mailpit"] as? [String: Any])
        #expect((mailpit["image"] as? String)?.contains("mailpit") == true)
    }

    @Test func dockerfileBuildsWithSwift6AndRunsOnASlimImage() throws {
        let dockerfile = try String(contentsOf: Self.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let stages = dockerfile.split(separator: "\n").filter { $0.hasPrefix("FROM ") }
        #expect(stages.count == 2)
        #expect(stages.first?.contains("swift:6") == true)
        #expect(stages.last?.contains("slim") == true)
        for package in ["libpq5", "libcurl4", "libidn2-0", "libsodium23", "libpsl5", "publicsuffix", "ca-certificates"] {
            #expect(dockerfile.contains(package), "runtime package \(package)")
        }
        #expect(dockerfile.contains("cp -R Migrations Public /staging/"))
        #expect(dockerfile.contains(#"CMD ["serve"]"#))
        #expect(dockerfile.contains("USER aasa"))
    }

    /// YAML → JSON through python3, then Foundation's JSON parser.
    private static func parseYAML(_ path: String) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 with the yaml module is needed (scripts/bootstrap --test installs python3-yaml)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
