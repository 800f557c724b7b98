import Foundation
import Store
import TestSupport
import Testing
import Vocabulary

@Suite struct ImportCommandTests {
    /// `import` refuses the app IDs the registration form refuses (it used to take any bundle ID
    /// without a space or a slash), names the line and the reason, and exits 1.
    @Test func refusesWhatTheFormRefuses() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let csv = """
            host,app ids
            ok.example,ABCDE12345.com.example.app
            underscore.example,ABCDE12345.com.example_app
            doubled.example,ABCDE12345.com..app
            lower.example,abcde12345.com.example.app
            """
        let outcome = try BuiltCommand.run(["import", "-", "--database-url", database.url], stdin: Array(csv.utf8))
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("added 1, skipped 0 (already registered), refused 3"))
        #expect(outcome.stdout.contains("refused line 3: underscore.example,ABCDE12345.com.example_app: \"ABCDE12345.com.example_app\" is not an app ID: The bundle ID"))
        #expect(outcome.stdout.contains("refused line 4: doubled.example,ABCDE12345.com..app: \"ABCDE12345.com..app\" is not an app ID"))
        #expect(outcome.stdout.contains("refused line 5: lower.example,abcde12345.com.example.app: \"abcde12345.com.example.app\" is not an app ID: The Team ID \"abcde12345\" must be upper-case: ABCDE12345"))

        let checkNow = try BuiltCommand.run(["check-now", "ok.example", "underscore.example", "--database-url", database.url])
        #expect(checkNow.status == 1)
        #expect(checkNow.stdout.contains("requested ok.example"))
        #expect(checkNow.stderr.contains("underscore.example is not registered"))
    }

    /// A domain's own Android apps in the import file (`android:PACKAGE=FINGERPRINT;…`, an upload key
    /// marked `=upload`), by the form's rules; what was imported is what `export --yaml` writes, and
    /// applying that export changes nothing.
    @Test func androidAppsAreImportedAndExported() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let key = FleetAssetLinks.appSigningKey, upload = FleetAssetLinks.uploadKey
        let csv = """
            host,app ids
            shop.example,ABCDE12345.com.example.shop,"android:com.example.shop=\(key.replacingOccurrences(of: ":", with: "").lowercased());\(upload)=upload"
            bad-package.example,android:example=\(key)
            sha1.example,android:com.example.app=\(String(repeating: "AB:", count: 19))AB
            bare.example,android:com.example.app
            """
        let outcome = try BuiltCommand.run(["import", "-", "--platforms", "android", "--database-url", database.url], stdin: Array(csv.utf8))
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("added 1, skipped 0 (already registered), refused 3"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("refused line 3: bad-package.example,android:example=\(key): android:example=\(key): \"example\" has one segment"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("refused line 4: ") && outcome.stdout.contains("SHA-1"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("refused line 5: bare.example,android:com.example.app: android:com.example.app: add the app's SHA-256 fingerprints"), "\(outcome.stdout)")

        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        let id = try #require(try db.domain(host: "shop.example")?.id)
        #expect(try db.androidAppExpectations(domainID: id) == [
            AndroidAppExpectation(packageName: "com.example.shop", fingerprints: [key, upload].sorted(), uploadKeys: [upload])])

        let exported = try BuiltCommand.run(["export", "--yaml", "--database-url", database.url])
        #expect(exported.status == 0 && exported.stdout.contains("android_apps:\n  - package: com.example.shop\n"), "\(exported.stdout)")
        #expect(exported.stdout.contains("upload_keys:"), "\(exported.stdout)")
        let applied = try BuiltCommand.run(["apply", "--dry-run", "--exit-code", "-", "--database-url", database.url], stdin: Array(exported.stdout.utf8))
        #expect(applied.status == 0, "the export is what the database holds: \(applied.stdout)\(applied.stderr)")
    }

    /// Watched URLs in the import file (`url:URL EXPECT [android=PACKAGE|nothing]`), with the per-URL
    /// Android outcome, by the form's rules; a bad entry refuses its line, naming the line, the entry
    /// and what is wrong with it.
    @Test func watchedURLsWithTheirAndroidOutcomeAreImported() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let csv = """
            host,expectations
            shop.example,ABCDE12345.com.example.shop,url:https://shop.example/p/1 ABCDE12345.com.example.shop android=com.example.shop,"url:https://shop.example/help?a=b browser android=nothing",url:https://shop.example/cart browser
            elsewhere.example,url:https://other.example/p/1 browser
            badexpect.example,url:https://badexpect.example/p ABCDE12345.com..app
            badandroid.example,url:https://badandroid.example/p browser android=example
            noexpect.example,url:https://noexpect.example/p
            """
        let outcome = try BuiltCommand.run(["import", "-", "--database-url", database.url], stdin: Array(csv.utf8))
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("added 1, skipped 0 (already registered), refused 4"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("refused line 3: elsewhere.example: watched URL 1 (https://other.example/p/1): This URL is not on elsewhere.example"),
                "\(outcome.stdout)")
        #expect(outcome.stdout.contains("refused line 4: badexpect.example: watched URL 1 (https://badexpect.example/p): Write an app ID or \"browser\"."),
                "\(outcome.stdout)")
        #expect(outcome.stdout.contains("refused line 5: badandroid.example: watched URL 1 (https://badandroid.example/p): Write the Android package"),
                "\(outcome.stdout)")
        #expect(outcome.stdout.contains("refused line 6: noexpect.example,url:https://noexpect.example/p: url:https://noexpect.example/p: write url:URL EXPECT"),
                "\(outcome.stdout)")

        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        let id = try #require(try db.domain(host: "shop.example")?.id)
        let watched = try db.watchedURLs(domainID: id).map { "\($0.url) \($0.expectedAppID ?? "browser") \($0.android?.rawValue ?? "-")" }
        #expect(watched == ["https://shop.example/p/1 ABCDE12345.com.example.shop com.example.shop",
                            "https://shop.example/help?a=b browser nothing", "https://shop.example/cart browser -"], "\(watched)")
        #expect(try db.appIDExpectations(domainID: id).map(\.appID) == ["ABCDE12345.com.example.shop"])
    }
}
