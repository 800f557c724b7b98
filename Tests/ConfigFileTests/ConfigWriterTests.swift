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
        for i in d.channels.indices {
            d.channels[i].lines = .init()
            // Compared by template: the writer never has the values.
            d.channels[i].settings = d.channels[i].settings.map { ($0.key, ConfigText(template: $0.text.template)) }
        }
        return d
    }
}
