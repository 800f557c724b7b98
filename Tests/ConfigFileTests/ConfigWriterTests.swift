import ConfigFile
import Testing

@Suite struct ConfigWriterTests {
    /// What the writer writes, the reader reads back as the same document (lines aside).
    @Test func writtenFilesReadBackTheSame() throws {
        let environment = ["HOOK_TOKEN": "t0k", "HOOK_SECRET": "whsec_abc"]
        let original = try ConfigReader.read(Array(ConfigReaderTests.example.utf8), environment: environment).get()
        let text = try ConfigWriter.yaml(original, header: ["exported"])
        #expect(text.hasPrefix("# exported\nversion: 1\n"))
        let again = try ConfigReader.read(Array(text.utf8), environment: environment).get()
        #expect(Self.withoutLines(again) == Self.withoutLines(original))
        #expect(!text.contains("t0k") && !text.contains("whsec_abc"), "resolved values are never written")
        #expect(text.contains("${HOOK_SECRET}"))
    }

    /// A watched URL's Android outcome stated apart (`android:`) is read and written back; left out, it stays out.
    @Test func aWatchedURLsAndroidOutcomeReadsAndWritesBack() throws {
        let text = """
            domains:
              - host: a.example
                watched_urls:
                  - {url: "https://a.example/p/1", expect: browser, android: com.example.shop}
                  - {url: "https://a.example/p/2", expect: ABCDE12345.com.example.a}
            """
        let original = try ConfigReader.read(Array(text.utf8), environment: [:]).get()
        #expect(original.domains.first?.watchedURLs.map(\.android) == ["com.example.shop", nil])
        let written = try ConfigWriter.yaml(original)
        #expect(written.components(separatedBy: "android:").count == 2, "\(written)")
        let again = try ConfigReader.read(Array(written.utf8), environment: [:]).get()
        #expect(Self.withoutLines(again) == Self.withoutLines(original))
    }

    /// Found by a long fuzz run: services listed in another order than the documented one were
    /// written back in the documented order, so the app IDs read back in a different order.
    @Test func servicesKeepTheFileOrder() throws {
        let text = "domains:\n  - host: a.example\n    app_ids:\n      webcredentials: [ABCDE12345.com.example.b]\n      applinks: [ABCDE12345.com.example.a]\n"
        let original = try ConfigReader.read(Array(text.utf8), environment: [:]).get()
        let again = try ConfigReader.read(Array(try ConfigWriter.yaml(original).utf8), environment: [:]).get()
        #expect(Self.withoutLines(again) == Self.withoutLines(original))
        #expect(again.domains.first?.appIDs.map(\.service) == ["webcredentials", "applinks"])
    }

    /// Found by fuzzing (an edited docs/aasa-monitor.example.yaml, kept in the config-file seeds): a
    /// file with apps is written back to the same apps, every field and fingerprint role included.
    /// Its lines differ, since export drops the comments; they are compared apart.
    @Test func appsAreWrittenBackTheSame() throws {
        let file = """
            version: 1
            # the example's comments move every line below
            apps:
              - name: Example
                apple_app_ids: [ABCDE12345.com.example.app]
                apple_domains:
                  - applinks:example.com
                  - applinks:staging.example.com?mode=developer
                android_package: com.example.app
                fingerprints:
                  - "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
                  - fingerprint: "A0:6D:E9:83:C5:73:06:50:D8:EE:B8:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
                    role: upload      # a comment
                  - {fingerprint: "B0:6D", role: app-signing}
                android_hosts: [example.com]
                watched_urls: [https://example.com/products/42]
            """
        let original = try ConfigReader.read(Array(file.utf8), environment: [:]).get()
        #expect(original.apps.first?.fingerprints.map(\.role) == ["app-signing", "upload", "app-signing"])
        let text = try ConfigWriter.yaml(original)
        let again = try ConfigReader.read(Array(text.utf8), environment: [:]).get()
        #expect(Self.withoutLines(again) == Self.withoutLines(original), "\(text)")
        #expect(again.apps.first?.lines.fingerprints.count == 3, "lines are still recorded for each fingerprint")
        #expect(again.apps.first?.lines != original.apps.first?.lines, "the comment moved the lines")
    }

    /// Strings YAML would read as something else come back as the same strings.
    @Test(arguments: ["true", "no", "60", "1e3", "null", "~", "*.example.com", "&x", "- a", "a: b", "#x", "'q'", "\"q\"", "${X}x", "é.example", " padded "])
    func awkwardStringsSurvive(_ s: String) throws {
        let document = ConfigDocument(sections: [.domains], domains: [DomainEntry(host: s, watchedURLs: [.init(url: s, expect: s)])])
        let text = try ConfigWriter.yaml(document)
        let back = try ConfigReader.read(Array(text.utf8), environment: [:]).get()
        #expect(back.domains.first?.host == s, "\(text)")
        #expect(back.domains.first?.watchedURLs.first?.url == s)
    }

    static func withoutLines(_ d: ConfigDocument) -> ConfigDocument {
        var d = d
        for i in d.domains.indices { d.domains[i].lines = .init() }
        for i in d.apps.indices { d.apps[i].lines = .init() }
        for i in d.channels.indices {
            d.channels[i].lines = .init()
            // Compared by template: the writer never has the values.
            d.channels[i].settings = d.channels[i].settings.map { ($0.key, ConfigText(template: $0.text.template)) }
        }
        return d
    }
}
