import AppManifests
import Testing

/// Manifests as Android Studio projects hold them: App Links filters with and without autoVerify,
/// several hosts and path patterns, and the filters that do not count (assetlinks-spec.md §2.5).
@Suite struct AndroidManifestReaderTests {
    static let shop = """
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android"
            xmlns:tools="http://schemas.android.com/tools"
            package="com.example.shop">

            <application android:label="Shop" tools:targetApi="34">
                <activity android:name=".ProductActivity" android:exported="true">
                    <intent-filter android:autoVerify="true">
                        <action android:name="android.intent.action.VIEW" />
                        <category android:name="android.intent.category.DEFAULT" />
                        <category android:name="android.intent.category.BROWSABLE" />
                        <data android:scheme="http" />
                        <data android:scheme="https" />
                        <data android:host="shop.example.com" />
                        <data android:host="www.shop.example.com" />
                        <data android:pathPrefix="/products/" />
                        <data android:path="/cart" />
                        <data android:pathPattern="/p/.*/reviews" />
                        <data android:pathAdvancedPattern="/o/[0-9]+/track" />
                        <data android:pathSuffix=".pdf" />
                    </intent-filter>
                    <intent-filter android:autoVerify="true">
                        <action android:name="android.intent.action.VIEW" />
                        <category android:name="android.intent.category.DEFAULT" />
                        <category android:name="android.intent.category.BROWSABLE" />
                        <data android:scheme="https" android:host="*.shop.example.com" />
                    </intent-filter>
                </activity>
                <activity-alias android:name=".Promo" android:targetActivity=".ProductActivity">
                    <intent-filter>
                        <action android:name="android.intent.action.VIEW" />
                        <category android:name="android.intent.category.DEFAULT" />
                        <category android:name="android.intent.category.BROWSABLE" />
                        <data android:scheme="https" android:host="promo.example.com" />
                    </intent-filter>
                    <intent-filter android:autoVerify="true">
                        <action android:name="android.intent.action.VIEW" />
                        <category android:name="android.intent.category.BROWSABLE" />
                        <data android:scheme="shop" android:host="open" />
                    </intent-filter>
                    <intent-filter android:autoVerify="true">
                        <action android:name="android.intent.action.SEND" />
                        <category android:name="android.intent.category.DEFAULT" />
                        <data android:scheme="https" android:host="share.example.com" />
                    </intent-filter>
                </activity-alias>
                <receiver android:name=".LinkReceiver">
                    <intent-filter android:autoVerify="true">
                        <action android:name="android.intent.action.VIEW" />
                        <category android:name="android.intent.category.BROWSABLE" />
                        <data android:scheme="https" android:host="receiver.example.com" />
                    </intent-filter>
                </receiver>
            </application>
        </manifest>

        """

    static func refusal(_ text: String) -> ManifestRefusal? {
        do throws(ManifestRefusal) {
            _ = try AndroidManifestReader.read(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// Foundation's XMLParser reads any depth (100,000 levels, measured); the collector stops at 64,
    /// with the line of the element that passes it, so its path cannot grow with the file (issue #30).
    @Test func nestingPastTheBudgetIsRefusedWithItsLine() throws {
        let deep = "<manifest package=\"a.b\">\n" + String(repeating: "<a>\n", count: 100_000) + String(repeating: "</a>", count: 100_000) + "\n</manifest>\n"
        let refusal = try #require(Self.refusal(deep))
        #expect(refusal.problems.map(\.description) == [
            "line 65: The manifest nests elements more than 64 deep; a manifest nests about six (manifest, application, activity, intent-filter, data).",
        ])
        let fits = "<manifest package=\"a.b\">" + String(repeating: "<a>", count: 63) + String(repeating: "</a>", count: 63) + "</manifest>"
        #expect(Self.refusal(fits) == nil, "64 levels with the manifest")
    }

    @Test func autoVerifyFiltersGiveTheVerifiedHostsAndWatchedURLs() throws {
        let manifest = try AndroidManifestReader.read(Array(Self.shop.utf8))
        #expect(manifest.package == "com.example.shop")
        #expect(manifest.verifiedHosts.map(\.description) == ["shop.example.com", "www.shop.example.com", "*.shop.example.com"])
        #expect(manifest.verifiedHosts[2].host == "shop.example.com" && manifest.verifiedHosts[2].isWildcard)
        #expect(manifest.unverifiedHosts.map(\.description) == ["promo.example.com"])
        // Custom schemes, other actions and receivers do not count.
        #expect(manifest.webFilters.count == 3)
        let products = manifest.webFilters[0]
        #expect(products.line == 8 && products.activity == ".ProductActivity" && products.autoVerify)
        #expect(products.schemes == ["http", "https"] && products.hasDefaultCategory)
        #expect(products.paths == [.prefix("/products/"), .path("/cart"), .pattern("/p/.*/reviews"),
                                   .advancedPattern("/o/[0-9]+/track"), .suffix(".pdf")])
        #expect(manifest.webFilters[2].activity == ".Promo" && !manifest.webFilters[2].autoVerify)
        #expect(manifest.watchedURLs == [
            "https://shop.example.com/products/", "https://shop.example.com/cart", "https://shop.example.com/p//reviews",
            "https://shop.example.com/o/0/track", "https://shop.example.com/example.pdf",
            "https://www.shop.example.com/products/", "https://www.shop.example.com/cart", "https://www.shop.example.com/p//reviews",
            "https://www.shop.example.com/o/0/track", "https://www.shop.example.com/example.pdf",
        ], "a wildcard host gives no example URL")
    }

    @Test func manifestWithoutAutoVerifyVerifiesNothing() throws {
        let plain = Self.shop.replacingOccurrences(of: " android:autoVerify=\"true\"", with: "")
        let manifest = try AndroidManifestReader.read(Array(plain.utf8))
        #expect(manifest.verifiedHosts.isEmpty)
        #expect(manifest.watchedURLs.isEmpty)
        #expect(manifest.unverifiedHosts.map(\.description)
                == ["shop.example.com", "www.shop.example.com", "*.shop.example.com", "promo.example.com"])
    }

    @Test func hostOnlyFilterWatchesTheRootAndAnOtherPrefixWorks() throws {
        let text = """
            <manifest xmlns:a="http://schemas.android.com/apk/res/android">
              <application><activity a:name=".Main">
                <intent-filter a:autoVerify="true">
                  <action a:name="android.intent.action.VIEW"/>
                  <category a:name="android.intent.category.BROWSABLE"/>
                  <data a:scheme="https" a:host="Example.COM"/>
                </intent-filter>
              </activity></application>
            </manifest>
            """
        let manifest = try AndroidManifestReader.read(Array(text.utf8))
        #expect(manifest.package == nil, "a source manifest of a Gradle project may have no package")
        #expect(manifest.verifiedHosts.map(\.description) == ["example.com"])
        #expect(manifest.watchedURLs == ["https://example.com/"])
        #expect(manifest.webFilters.first?.hasDefaultCategory == false)
    }

    @Test(arguments: [
        ("${appLinkHost}", "Gradle placeholder"),
        ("@string/app_host", "refers to a resource"),
        ("https://shop.example.com", "contains a scheme"),
        ("shop.example.com/products", "contains a path"),
        ("shop.example.com:8443", "contains a port"),
        ("*", "every site"),
        ("203.0.113.7", "is an IP address"),
        ("", "is empty"),
        ("shop..example.com", "empty label"),
        ("www.*.example.com", "a * other than a leading"),
        // Found by fuzzing: a character no host name has was taken as a verified host.
        ("*.example.#om", "contains U+23, which a host name cannot have"),
        ("shop^.example.com", "contains U+5E"),
        ("shop example.com", "contains U+20"),
        ("shop.example.com\u{202E}", "contains U+202E"),
    ])
    func brokenHostOfAVerifiedFilterIsRefused(host: String, words: String) throws {
        let text = Self.shop.replacingOccurrences(of: "android:host=\"www.shop.example.com\"", with: "android:host=\"\(host)\"")
        let refusal = try #require(Self.refusal(text))
        #expect(refusal.problems.count == 1)
        #expect(refusal.problems.first?.line == 15)
        #expect(refusal.problems.first?.reason.contains(words) == true, "\(refusal)")
    }

    @Test func brokenHostOutsideAVerifiedFilterIsNotWatchedAndNotRefused() throws {
        let text = Self.shop.replacingOccurrences(of: "android:host=\"promo.example.com\"", with: "android:host=\"${promo}\"")
        let manifest = try AndroidManifestReader.read(Array(text.utf8))
        #expect(manifest.unverifiedHosts.isEmpty)
    }

    @Test func verifiedFilterWithoutHostIsRefused() throws {
        let text = Self.shop.replacingOccurrences(of: "<data android:scheme=\"https\" android:host=\"*.shop.example.com\" />",
                                                  with: "<data android:scheme=\"https\" />")
        let refusal = try #require(Self.refusal(text))
        #expect(refusal.problems.first?.line == 22)
        #expect(refusal.problems.first?.reason.contains("names no android:host") == true)
    }

    @Test func malformedXMLAndOtherFilesAreRefusedWithTheLine() throws {
        let broken = Self.shop.replacingOccurrences(of: "</activity>", with: "</activty>")
        let refusal = try #require(Self.refusal(broken))
        #expect(refusal.problems.first?.line == 28)
        #expect(refusal.problems.first?.reason == "The XML is not well-formed: a closing tag does not match the element it closes.")

        let notManifest = try #require(Self.refusal("<?xml version=\"1.0\"?>\n<resources>\n</resources>\n"))
        #expect(notManifest.problems.first?.line == 2)
        #expect(notManifest.problems.first?.reason.contains("not <manifest>") == true)

        #expect(Self.refusal("")?.problems.first?.reason.hasPrefix("The file is empty") == true)
        let binary = try #require(Self.refusal(String(decoding: [0x03, 0x00, 0x08, 0x00, 0x10, 0x20], as: UTF8.self)))
        #expect(binary.problems.first?.reason.contains("compiled (binary XML)") == true)

        // Found by the fuzz target: Foundation's XMLParser traps on such an attribute value.
        let latin1 = Array("<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\">\n<application android:label=\"".utf8)
            + [0xE9, 0x41, 0xFF] + Array("\"/>\n</manifest>\n".utf8)
        let notUTF8: ManifestRefusal? = {
            do throws(ManifestRefusal) { _ = try AndroidManifestReader.read(latin1); return nil } catch { return error }
        }()
        #expect(notUTF8?.problems.first?.line == 2)
        #expect(notUTF8?.problems.first?.reason.hasPrefix("The file is not UTF-8 (byte 99 ") == true)

        // Found by the entitlements fuzz target; the same libxml2 callback crashes this reader.
        let emptyInstruction = try #require(Self.refusal("<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\">\n<?x?>\n</manifest>\n"))
        #expect(emptyInstruction.problems.first?.line == 2)
        #expect(emptyInstruction.problems.first?.reason.hasPrefix("A processing instruction has nothing after its name") == true)

        let undeclared = try #require(Self.refusal("<manifest>\n<application android:label=\"x\"/>\n</manifest>"))
        #expect(undeclared.problems.first?.line == 2)
        #expect(undeclared.problems.first?.reason.contains("namespace prefix") == true)
    }
}

@Suite struct PathPatternExampleTests {
    @Test(arguments: [
        (PathPattern.path("/cart"), "/cart"),
        (.prefix("/products/"), "/products/"),
        (.suffix(".pdf"), "/example.pdf"),
        (.suffix("/help"), "/help"),
        (.pattern("/p/.*/reviews"), "/p//reviews"),
        (.pattern("/item/..*"), "/item/x"),
        (.pattern("/a\\\\.b"), "/a.b"),
        (.pattern("/a\\.b*c"), "/a.c"),
        (.advancedPattern("/o/[0-9]+/track"), "/o/0/track"),
        (.advancedPattern("/id/[a-f0-9]{4}"), "/id/aaaa"),
        (.advancedPattern("/x/[^/]+/y"), "/x/x/y"),
        (.advancedPattern("/s/.*"), "/s/"),
        (.advancedPattern("/o/{2}"), "/o//"),
    ])
    func examplesMatchThePattern(pattern: PathPattern, example: String) {
        #expect(pattern.example == example, "\(pattern)")
    }

    @Test(arguments: [PathPattern.pattern("products/.*"), .advancedPattern("/o/[0-9"), .advancedPattern("{2}/o"),
                      .advancedPattern("/o/a{x}"), .pattern("/trailing\\"),
                      // A negative count would trap, a huge one exhaust memory.
                      .advancedPattern("/o/a{-1}"), .advancedPattern("/o/a{99999999999}"), .advancedPattern("/o/a{257}")])
    func noExampleWhereNoneCanBeWritten(pattern: PathPattern) {
        #expect(pattern.example == nil, "\(pattern)")
    }
}
