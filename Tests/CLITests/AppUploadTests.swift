import Foundation
import Testing
import TestSupport

/// The app form's files uploaded without JavaScript: `serve` on a real database and socket, signed in
/// with curl's cookie jar, the files posted as multipart/form-data the way a browser with scripts off
/// (or curl -F) sends them: a binary .entitlements and an AndroidManifest.xml.
@Suite struct AppUploadTests {
    static let email = "upload@example.com", password = "correct horse battery staple"

    @Test func filesUploadedWithoutScriptArePreviewedAndRegisteredAndMalformedBodiesRefused() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let environment = ["DATABASE_URL": database.url, "AASA_MONITOR_ALLOW_PRIVATE": "1"]
        let admin = try BuiltCommand.run(["user", "create", "--admin", "--password-stdin", Self.email],
                                         stdin: Array("\(Self.password)\n".utf8), environment: environment)
        #expect(admin.status == 0, "\(admin.stderr)")
        let serve = try ServeProcess(arguments: ["--no-crawl", "--no-notify"], environment: environment)
        defer { _ = try? serve.terminate() }
        let base = "http://127.0.0.1:\(try serve.waitForPort())"
        let scratch = try ScratchDirectory()
        let jar = scratch.url.appendingPathComponent("cookies").path

        func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
            let out = try ExternalTool.run(ExternalTool.path("curl", hint: "Debian's curl package"),
                                           ["-sS", "-b", jar, "-c", jar, "-o", "-", "-w", "\n%{http_code}"] + arguments)
            let lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            guard let status = lines.last.flatMap({ Int($0) }) else { throw ServeProcess.Failure(description: "curl: \(out.output)") }
            return (status, lines.dropLast().joined(separator: "\n"))
        }
        func csrf(_ page: String) -> String {
            guard let r = page.range(of: "name=\"csrf\" value=\"") else { return "" }
            return String(page[r.upperBound...].prefix { $0 != "\"" })
        }

        let login = try curl([base + "/login"])
        let signedIn = try curl(["--data-urlencode", "email=\(Self.email)", "--data-urlencode", "password=\(Self.password)",
                                 "--data-urlencode", "csrf=\(csrf(login.body))", base + "/login"])
        #expect(signedIn.status == 303, "\(signedIn.body)")
        let form = try curl([base + "/apps/new"])
        #expect(form.body.contains("enctype=\"multipart/form-data\"") && form.body.contains("name=\"entitlements_file\""))
        let token = csrf(form.body)

        let entitlements = try PropertyListSerialization.data(fromPropertyList: [
            "com.apple.developer.associated-domains": ["applinks:upload.example", "webcredentials:upload.example"],
            "application-identifier": "ABCDE12345.com.example.upload",
        ] as [String: Any], format: .binary, options: 0)
        let entitlementsPath = scratch.url.appendingPathComponent("App.entitlements").path
        try entitlements.write(to: URL(fileURLWithPath: entitlementsPath))
        let manifest = try VerifyAppAndroidTests.manifest(["android.upload.example"], in: scratch.url, package: "com.example.upload")

        let files = ["-F", "csrf=\(token)", "-F", "name=Upload", "-F", "entitlements_file=@\(entitlementsPath);type=application/octet-stream",
                     "-F", "manifest_file=@\(manifest);type=text/xml", "-F", "fingerprints=\(String(repeating: "AB:", count: 31))AB"]
        let preview = try curl(files + [base + "/apps/preview"])
        #expect(preview.status == 200, "\(preview.body)")
        #expect(preview.body.contains("Register Upload?") && preview.body.contains("ABCDE12345.com.example.upload"))
        #expect(preview.body.contains("upload.example") && preview.body.contains("android.upload.example")
                && preview.body.contains("com.example.upload"), "both files were read")
        // The binary file travels on to the confirmation as base64 in a hidden field.
        #expect(preview.body.contains("name=\"entitlements\" value=\"base64:"))

        let created = try curl(files + [base + "/apps"])
        #expect(created.status == 303, "\(created.body)")
        let list = try BuiltCommand.run(["app", "list", "--database-url", database.url])
        #expect(list.stdout.contains("\tUpload\tABCDE12345.com.example.upload com.example.upload\t2 domains, 3 links"), "\(list.stdout)")

        // Malformed bodies: a 400 saying what is wrong, and nothing written.
        let type = "Content-Type: multipart/form-data; boundary=XyZ"
        let cut = try curl(["-H", type, "--data-binary", "--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(token)",
                            base + "/apps/preview"])
        #expect(cut.status == 400 && cut.body.contains("the body ends before its closing boundary"), "\(cut.body)")
        let unnamed = try curl(["-H", type, "--data-binary", "--XyZ\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XyZ--\r\n",
                                base + "/apps/preview"])
        #expect(unnamed.status == 400 && unnamed.body.contains("part 1 names no field"), "\(unnamed.body)")
        let noBoundary = try curl(["-H", "Content-Type: multipart/form-data", "--data-binary", "x", base + "/apps/preview"])
        #expect(noBoundary.status == 400 && noBoundary.body.contains("no usable boundary"), "\(noBoundary.body)")
        #expect(try BuiltCommand.run(["app", "list", "--database-url", database.url]).stdout.split(separator: "\n").count == 1)
    }
}
