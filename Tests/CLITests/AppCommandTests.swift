import Foundation
import Store
import TestSupport
import Testing

/// `app import/add/list` through the built binary: the plan is printed, a refused file names the line
/// and writes nothing, and the app lands with its domains.
@Suite struct AppCommandTests {
    static let entitlements = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>com.apple.developer.associated-domains</key>
        \t<array>
        \t\t<string>applinks:shop.example</string>
        \t\t<string>applinks:*.shop.example?mode=developer</string>
        \t</array>
        \t<key>application-identifier</key>
        \t<string>ABCDE12345.com.example.shop</string>
        </dict>
        </plist>
        """

    @Test func importListAndRefuse() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let dry = try BuiltCommand.run(["app", "import", "--entitlements", "-", "--dry-run", "--database-url", database.url],
                                       stdin: Array(Self.entitlements.utf8))
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("would register com.example.shop"))
        #expect(dry.stdout.contains("*.shop.example (new): apple applinks (developer: origin only)"))

        let bad = try BuiltCommand.run(["app", "import", "--entitlements", "-", "--database-url", database.url],
                                       stdin: Array(Self.entitlements.replacingOccurrences(of: "applinks:shop.example<", with: "applinks:https://shop.example<").utf8))
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("refused entitlements: line 7: "), "\(bad.stderr)")

        let list0 = try BuiltCommand.run(["app", "list", "--database-url", database.url])
        #expect(list0.stdout.isEmpty, "neither the dry run nor the refusal wrote anything")

        let done = try BuiltCommand.run(["app", "import", "--entitlements", "-", "--name", "Shop", "--database-url", database.url],
                                        stdin: Array(Self.entitlements.utf8))
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout.contains("registered app 1 with 2 domains"))
        let added = try BuiltCommand.run(["app", "add", "--package", "com.example.shop", "--android-host", "shop.example",
                                          "--fingerprint", String(repeating: "AB:", count: 31) + "AB=upload", "--database-url", database.url])
        #expect(added.status == 0, "\(added.stderr)")
        let list = try BuiltCommand.run(["app", "list", "--database-url", database.url])
        #expect(list.stdout.contains("1\tShop\tABCDE12345.com.example.shop\t2 domains, 2 links: 2 checking"), "\(list.stdout)")
        #expect(list.stdout.contains("2\tcom.example.shop\tcom.example.shop\t1 domains, 1 links: 1 checking"))
    }
}
