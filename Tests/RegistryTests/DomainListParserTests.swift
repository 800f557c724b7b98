@testable import Registry
import Testing
import Vocabulary

@Suite struct DomainListParserTests {
    @Test func oneDomainPerLine() {
        let result = DomainListParser.parse("example.com\n\n# a comment\n  bücher.example  \r\nshop.example.org\n")
        #expect(result.entries.map(\.host) == ["example.com", "bücher.example", "shop.example.org"])
        #expect(result.entries.map(\.line) == [1, 4, 5])
        #expect(result.refusals.isEmpty)
    }

    @Test func csvWithAppIDsAndAHeader() throws {
        let text = """
            host,app ids
            example.com,ABCDE12345.com.example.app,webcredentials:ABCDE12345.com.example.app
            "other.example", "ZYXWV98765.com.other"
            plain.example,
            """
        let result = DomainListParser.parse(text)
        #expect(result.refusals.isEmpty)
        #expect(result.entries == [
            DomainListEntry(line: 2, host: "example.com", appIDs: [.applinks: [try AppID("ABCDE12345.com.example.app")],
                                                                   .webcredentials: [try AppID("ABCDE12345.com.example.app")]]),
            DomainListEntry(line: 3, host: "other.example", appIDs: [.applinks: [try AppID("ZYXWV98765.com.other")]]),
            DomainListEntry(line: 4, host: "plain.example"),
        ])
    }

    @Test(arguments: [
        ("example.com,notanappid", "\"notanappid\" is not an app ID"),
        ("example.com,abcde12345.lower", "\"abcde12345.lower\" is not an app ID"),
        ("example.com,ABCDE12345.", "\"ABCDE12345.\" is not an app ID"),
        // Accepted by the import before it shared the form's rule (AppID), refused by the form all along.
        ("example.com,ABCDE12345.com.example_app", "\"ABCDE12345.com.example_app\" is not an app ID: The bundle ID"),
        ("example.com,ABCDE12345.com..app", "\"ABCDE12345.com..app\" is not an app ID: The bundle ID"),
        ("example.com,ABCDE12345.com.app.", "\"ABCDE12345.com.app.\" is not an app ID: The bundle ID"),
        ("example.com,ABCDE12345.com.bücher", "\"ABCDE12345.com.bücher\" is not an app ID: The bundle ID"),
        ("example.com,maps:ABCDE12345.x", "unknown service \"maps\""),
        (",ABCDE12345.x", "the first column (the host) is empty"),
    ])
    func refusalsSayWhy(line: String, reason: String) {
        let result = DomainListParser.parse("ok.example\n" + line)
        #expect(result.entries.map(\.host) == ["ok.example"])
        #expect(result.refusals.count == 1)
        #expect(result.refusals.first?.line == 2)
        #expect(result.refusals.first?.reason.hasPrefix(reason) == true, "\(result.refusals)")
    }

    @Test func androidAppColumns() throws {
        let key = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        let other = String(repeating: "AB:", count: 31) + "AB"
        let result = DomainListParser.parse("""
            a.example,android:com.example.a=\(key.replacingOccurrences(of: ":", with: "").lowercased()); \(other) ,ABCDE12345.com.example.a
            b.example,android:com.example.b=\(key),android:com.example.b=\(other)
            c.example,Android:com.example.c=
            d.example,android:com.example.d=\(key);\(other.lowercased())=UPLOAD
            """)
        let both = [try CertificateFingerprint(typed: key), try CertificateFingerprint(typed: other)].sorted()
        #expect(result.entries == [
            DomainListEntry(line: 1, host: "a.example", appIDs: [.applinks: [try AppID("ABCDE12345.com.example.a")]],
                            androidApps: [AndroidAppColumn(package: try AndroidPackage(typed: "com.example.a"), fingerprints: both)]),
            // An upload key marked as on the form (`=upload`): one of the app's keys, and marked.
            DomainListEntry(line: 4, host: "d.example",
                            androidApps: [AndroidAppColumn(package: try AndroidPackage(typed: "com.example.d"), fingerprints: both,
                                                           uploadKeys: [try CertificateFingerprint(typed: other)])]),
        ])
        #expect(result.refusals.map(\.line) == [2, 3])
        #expect(result.refusals.first?.reason == "com.example.b is listed twice; put all its fingerprints in one column, separated by ;")
        #expect(result.refusals.last?.reason.hasPrefix("android:com.example.c=: add the app's SHA-256 fingerprints") == true)
    }

    @Test func quotedFieldsKeepCommasAndQuotes() {
        #expect(DomainListParser.splitCSV(#"a,"b,c","d""e",f"#) == ["a", "b,c", "d\"e", "f"])
    }

    @Test func headerOnlyOnTheFirstDataLine() {
        // A domain literally called "host" later in the file is not a header (and not a valid name either,
        // but that is the host validation's business, not the parser's).
        #expect(DomainListParser.parse("a.example\nhost").entries.map(\.host) == ["a.example", "host"])
    }
}

@Suite struct ProgressBarTests {
    @Test(arguments: [
        (0, "[----------]   0/200"),
        (100, "[#####-----] 100/200"),
        (200, "[##########] 200/200"),
        (250, "[##########] 200/200"),
    ])
    func drawsProportionally(done: Int, line: String) {
        #expect(ProgressBar(total: 200, width: 10).line(done: done) == line)
    }
}
