import AppManifests
import Foundation
import Testing
import Vocabulary

/// Entitlements as Xcode writes them (XML with tabs and Apple's DOCTYPE), as binary property lists,
/// as a built app's entitlements, and as the bare associated-domains array.
@Suite struct EntitlementsReaderTests {
    /// The file Xcode writes when Associated Domains is added under Signing & Capabilities.
    static func xcodeFile(_ domains: [String], extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>com.apple.developer.associated-domains</key>
        \t<array>
        \(domains.map { "\t\t<string>\($0)</string>" }.joined(separator: "\n"))
        \t</array>
        \(extra)</dict>
        </plist>

        """
    }

    static func read(_ text: String) throws(ManifestRefusal) -> AppleEntitlements {
        try EntitlementsReader.read(Array(text.utf8))
    }

    static func refusal(_ text: String) -> ManifestRefusal? {
        refusal(Array(text.utf8))
    }

    static func refusal(_ bytes: [UInt8]) -> ManifestRefusal? {
        do throws(ManifestRefusal) {
            _ = try EntitlementsReader.read(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func xcodeXMLWithSeveralServicesWildcardsAndModes() throws {
        let file = Self.xcodeFile([
            "applinks:example.com", "applinks:*.example.com", "webcredentials:example.com",
            "appclips:clip.example.com", "activitycontinuation:example.com",
            "applinks:staging.example.com?mode=developer", "applinks:intranet.example.com?mode=managed",
            "webcredentials:dev.example.com?mode=developer+managed",
        ])
        let entitlements = try Self.read(file)
        #expect(entitlements.domains.map(\.entitlement) == [
            "applinks:example.com", "applinks:*.example.com", "webcredentials:example.com", "appclips:clip.example.com",
            "activitycontinuation:example.com", "applinks:staging.example.com?mode=developer",
            "applinks:intranet.example.com?mode=managed", "webcredentials:dev.example.com?mode=developer+managed",
        ])
        // Lines as Xcode lays the file out: the first <string> is on line 7.
        #expect(entitlements.domains.map(\.line) == Array(7...14).map(Optional.some))
        #expect(entitlements.domains(for: .applinks).map(\.displayHost)
                == ["example.com", "*.example.com", "staging.example.com", "intranet.example.com"])
        let wildcard = entitlements.domains[1]
        #expect(wildcard.isWildcard && wildcard.host == "example.com" && wildcard.service == .applinks)
        #expect(entitlements.domains(for: .webcredentials).count == 2)
        #expect(entitlements.domains(for: .appclips).map(\.host) == ["clip.example.com"])
        #expect(entitlements.domains(for: .activitycontinuation).map(\.host) == ["example.com"])

        let developer = entitlements.domains[5], managed = entitlements.domains[6], both = entitlements.domains[7]
        #expect(developer.modes == .developer && developer.isOriginOnly)
        #expect(managed.modes == .managed && !managed.isOriginOnly && managed.modes.mode == "managed")
        #expect(both.modes == [.developer, .managed] && both.isOriginOnly && both.modes.mode == "developer+managed")
        #expect(developer.notes.map(\.code) == ["entitlement-alternate-mode"])
        #expect(entitlements.domains[0].modes.isEmpty && entitlements.domains[0].notes.isEmpty)
        #expect(entitlements.appIDs.isEmpty, "a project's entitlements file carries no app ID")
    }

    @Test func binaryPropertyListOfABuiltAppWithAppIDs() throws {
        let plist: [String: Any] = [
            "application-identifier": "ABCDE12345.com.example.shop",
            "com.apple.application-identifier": "ABCDE12345.com.example.shop.mac",
            "com.apple.developer.team-identifier": "ABCDE12345",
            "com.apple.developer.associated-domains": ["applinks:shop.example.com", "webcredentials:shop.example.com"],
            "keychain-access-groups": ["ABCDE12345.*"],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        #expect(data.starts(with: Array("bplist00".utf8)))
        let entitlements = try EntitlementsReader.read(Array(data))
        #expect(Set(entitlements.appIDs.map(\.text)) == ["ABCDE12345.com.example.shop", "ABCDE12345.com.example.shop.mac"])
        #expect(entitlements.teamID == "ABCDE12345")
        #expect(entitlements.domains.map(\.entitlement) == ["applinks:shop.example.com", "webcredentials:shop.example.com"])
        #expect(entitlements.domains.allSatisfy { $0.line == nil }, "a binary plist has no lines")
    }

    /// A binary plist written byte by byte: `{associated-domains: <container>("applinks:example.com")}`,
    /// the container's marker given (0xA1 an array of one, 0xC1 a set of one), one-byte offsets and refs.
    static func handmadeBinaryPlist(container: UInt8) -> [UInt8] {
        func ascii(_ s: String) -> [UInt8] { [0x5F, 0x10, UInt8(s.utf8.count)] + Array(s.utf8) }
        let objects: [[UInt8]] = [
            [0xD1, 0x01, 0x02],                                   // 0: a dictionary of one pair, key 1, value 2
            ascii("com.apple.developer.associated-domains"),      // 1
            [container, 0x03],                                    // 2: one element, object 3
            ascii("applinks:example.com"),                        // 3
        ]
        var file = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(file.count))
            file += object
        }
        let table = file.count
        file += offsets
        func be64(_ n: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: n >> ($0 * 8)) } }
        file += [0, 0, 0, 0, 0, 0, 1, 1] + be64(objects.count) + be64(0) + be64(table)
        return file
    }

    @Test func handmadeBinaryPlistWithAnArrayReads() throws {
        let entitlements = try EntitlementsReader.read(Self.handmadeBinaryPlist(container: 0xA1))
        #expect(entitlements.domains.map(\.entitlement) == ["applinks:example.com"])
    }

    /// Foundation crashes the process bridging a set from a binary plist (found by fuzzing): the
    /// reader refuses it before Foundation sees the bytes.
    @Test func binaryPlistHoldingASetIsRefusedBeforeFoundationReadsIt() throws {
        let refusal = try #require(Self.refusal(Self.handmadeBinaryPlist(container: 0xC1)))
        #expect(refusal.problems.count == 1)
        #expect(refusal.problems[0].line == nil)
        #expect(refusal.problems[0].reason.hasPrefix("The binary property list holds a set (object 2, at byte"))
        // An ordered set (0xB_) is refused the same way.
        let ordered = try #require(Self.refusal(Self.handmadeBinaryPlist(container: 0xB1)))
        #expect(ordered.problems[0].reason.contains("holds a set (object 2"))
    }

    @Test func binaryPlistWithABrokenTrailerIsRefusedWithTheReason() throws {
        var file = Self.handmadeBinaryPlist(container: 0xA1)
        file[file.count - 1] = 0xF0                               // the offset table past the trailer
        let beyond = try #require(Self.refusal(file))
        #expect(beyond.problems.map(\.reason) == [
            "The file starts like a binary property list, but its trailer does not point inside the file. Pass the .entitlements file Xcode writes, or the built app's entitlements (codesign -d --entitlements - App.app).",
        ])
        var outside = Self.handmadeBinaryPlist(container: 0xA1)
        let table = outside.count - 32 - 4
        outside[table + 3] = UInt8(table)                         // object 3 placed on the table itself
        #expect(try #require(Self.refusal(outside)).problems[0].reason.contains("object 3 lies outside the object area"))
        #expect(try #require(Self.refusal(Array("bplist00".utf8) + [0xC0])).problems[0].reason
                .contains("shorter than a header and a trailer"))
    }

    @Test func xmlWithAppIDKeysAndUnexpandedBuildVariables() throws {
        let file = Self.xcodeFile(["applinks:example.com"], extra: """
            \t<key>application-identifier</key>
            \t<string>ABCDE12345.com.example.app</string>
            \t<key>com.apple.application-identifier</key>
            \t<string>$(AppIdentifierPrefix)$(CFBundleIdentifier)</string>

            """)
        let entitlements = try Self.read(file)
        #expect(entitlements.appIDs.map(\.text) == ["ABCDE12345.com.example.app"], "a $(…) app ID is left for the caller to name")
    }

    @Test func bareArrayAsPlistAndAsJSON() throws {
        let plist = try PropertyListSerialization.data(fromPropertyList: ["applinks:a.example", "webcredentials:a.example"],
                                                       format: .xml, options: 0)
        let fromPlist = try EntitlementsReader.read(Array(plist))
        #expect(fromPlist.domains.map(\.service) == [.applinks, .webcredentials])
        #expect(fromPlist.domains.map(\.line).allSatisfy { $0 != nil })

        let json = """
            [
              "applinks:a.example",
              "applinks:*.b.example?mode=developer",
              "webcredentials:a.example"
            ]
            """
        let fromJSON = try Self.read(json)
        #expect(fromJSON.domains.map(\.displayHost) == ["a.example", "*.b.example", "a.example"])
        #expect(fromJSON.domains.map(\.line) == [2, 3, 4])
        #expect(fromJSON.domains[1].isOriginOnly)
    }

    @Test func authsrvAndRepeatsAreSetAside() throws {
        let entitlements = try Self.read(Self.xcodeFile(["applinks:example.com", "authsrv:login.example.com", "applinks:EXAMPLE.com"]))
        #expect(entitlements.domains.map(\.entitlement) == ["applinks:example.com"])
        #expect(entitlements.ignored.map(\.reason) == ["authsrv is not one of the services the monitor watches", "listed twice"])
        #expect(entitlements.ignored.map(\.line) == [8, 9])
    }

    @Test func unicodeHostIsAcceptedWithAWarning() throws {
        let entitlements = try Self.read(Self.xcodeFile(["applinks:bücher.example"]))
        #expect(entitlements.domains.first?.notes.map(\.code) == ["entitlement-idn-not-punycode"])
    }

    // MARK: - Refusals

    /// Each rule of aasa-spec.md §13, on the line of the entry that breaks it; every broken entry
    /// is reported, and nothing is returned.
    @Test(arguments: [
        ("applinks:example.com:8443", "entitlement-port", "port 8443"),
        ("applinks:https://example.com", "entitlement-malformed", "URL scheme"),
        ("applinks:example.com/shop", "entitlement-malformed", "the path \"/shop\""),
        ("applinks:example.com/", "entitlement-malformed", "ends with a slash"),
        ("applinks:192.0.2.10", "entitlement-malformed", "IP address 192.0.2.10"),
        ("applinks:[2001:db8::1]", "entitlement-malformed", "IP address [2001:db8::1]"),
        ("applinks:", "entitlement-malformed", "has no host name"),
        // Found by the fuzz target: a wildcard with nothing after it was accepted with an empty host.
        ("applinks:*.", "entitlement-malformed", "has a wildcard but no host name"),
        ("applinks:example.com?mode=debug", "entitlement-mode-invalid", "?mode=debug is not a mode"),
        ("applinks:example.com?x=1", "entitlement-malformed", "only ?mode=… is allowed"),
        ("appclips:*.example.com", "entitlement-wildcard-not-allowed", "App Clips cannot use wildcard"),
        ("applinks:www.*.example.com", "entitlement-wildcard-not-allowed", "only *.example.com"),
        ("applink:example.com", "entitlement-unknown-service", "did you mean \"applinks\""),
        ("example.com", "entitlement-malformed", "no service prefix"),
        ("applinks:$(APP_LINK_HOST)", "entitlement-malformed", "build setting $(APP_LINK_HOST)"),
        // Found by the fuzz target: characters no host name has were let through.
        ("applinks:shop#1.example.com", "entitlement-malformed", "contains U+23"),
        ("applinks:a^b.example", "entitlement-malformed", "contains U+5E"),
        ("applinks:a..example.com", "entitlement-malformed", "empty label"),
        ("applinks:example.com.", "entitlement-malformed", "empty label"),
    ])
    func entryBreakingARuleIsRefused(entry: String, code: String, words: String) throws {
        let refusal = try #require(Self.refusal(Self.xcodeFile(["applinks:fine.example", entry])))
        let problem = try #require(refusal.problems.first { $0.code == code }, "\(refusal)")
        #expect(problem.line == 8)
        #expect(problem.reason.contains(words), "\(problem.reason)")
        #expect(problem.description.hasPrefix("line 8: "))
    }

    @Test func everyBrokenEntryIsReported() throws {
        let refusal = try #require(Self.refusal(Self.xcodeFile(["applinks:a.example:1", "applinks:ok.example", "webcredentials:"])))
        #expect(refusal.problems.map(\.line) == [7, 9])
    }

    @Test func malformedXMLNamesTheLine() throws {
        let broken = Self.xcodeFile(["applinks:example.com"]).replacingOccurrences(of: "\t</array>", with: "\t</arry>")
        let refusal = try #require(Self.refusal(broken))
        #expect(refusal.problems.count == 1)
        #expect(refusal.problems.first?.line == 8)
        #expect(refusal.problems.first?.reason == "The XML is not well-formed: a closing tag does not match the element it closes.")

        let unclosed = try #require(Self.refusal("<plist version=\"1.0\">\n<dict>\n<key>a</key>\n"))
        #expect(unclosed.problems.first?.reason.contains("ends before every element is closed") == true)

        let entity = try #require(Self.refusal(Self.xcodeFile(["applinks:a&b.example"])))
        #expect(entity.problems.first?.line == 7)
    }

    @Test func xmlThatIsNotUTF8IsRefusedBeforeXMLParserSeesIt() throws {
        var bytes = Array(Self.xcodeFile(["applinks:example.com"]).utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("example".utf8)) })
        bytes[at] = 0xFF
        let refusal = try #require(Self.refusal(bytes))
        #expect(refusal.problems.first?.line == 7)
        #expect(refusal.problems.first?.reason.hasPrefix("The file is not UTF-8") == true)
    }

    /// Found by the entitlements fuzz target: libxml2 reports `<?name?>` with a NULL data pointer
    /// and Foundation's XMLParser passes it to strlen (a segfault, not an error).
    @Test func processingInstructionWithoutDataIsRefusedBeforeXMLParserSeesIt() throws {
        let refusal = try #require(Self.refusal("<?xml?>\n" + Self.xcodeFile(["applinks:example.com"])))
        #expect(refusal.problems.first?.line == 1)
        #expect(refusal.problems.first?.reason.hasPrefix("A processing instruction has nothing after its name") == true)
        let inside = try #require(Self.refusal(Self.xcodeFile(["applinks:example.com"]).replacingOccurrences(of: "<dict>", with: "<dict>\n<?pi?>")))
        #expect(inside.problems.first?.line == 5)
        // With data (even only white space before "?>") libxml2 passes a string: read as before.
        #expect(Self.refusal(Self.xcodeFile(["applinks:example.com"]).replacingOccurrences(of: "<dict>", with: "<dict><?pi x?>")) == nil)
    }

    @Test func wellFormedXMLThatIsNotAPropertyList() throws {
        let refusal = try #require(Self.refusal("<plist version=\"1.0\">\n<dict>\n<key>a</key>\n<integer>x</integer>\n</dict>\n</plist>\n"))
        #expect(refusal.problems.first?.reason.hasPrefix("The file is not a property list") == true)
    }

    @Test func invalidJSONNamesTheLine() throws {
        let refusal = try #require(Self.refusal("[\n  \"applinks:a.example\",\n  applinks:b.example\n]"))
        #expect(refusal.problems.first?.line == 3)
        #expect(refusal.problems.first?.reason.hasPrefix("The file is not valid JSON") == true)
    }

    @Test func structuralRefusals() throws {
        #expect(Self.refusal("")?.problems.first?.reason.hasPrefix("The file is empty") == true)
        #expect(Self.refusal(" \n")?.problems.first?.reason.hasPrefix("The file is empty") == true)
        // PropertyListSerialization reads a bare word as an old-style (ASCII) property list string.
        #expect(Self.refusal("hello")?.problems.first?.reason.hasPrefix("Expected a dictionary of entitlements") == true)
        #expect(Self.refusal("{ a = (")?.problems.first?.reason.hasPrefix("The file is not a property list") == true)

        let noKey = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>aps-environment</key>
            \t<string>development</string>
            </dict>
            </plist>
            """
        #expect(Self.refusal(noKey)?.problems.first?.reason.contains("no com.apple.developer.associated-domains key") == true)

        let notArray = noKey.replacingOccurrences(of: "aps-environment", with: "com.apple.developer.associated-domains")
        let wrongType = try #require(Self.refusal(notArray))
        #expect(wrongType.problems.first?.line == 4)
        #expect(wrongType.problems.first?.reason.contains("must be an array of strings") == true)

        let empty = try #require(Self.refusal(Self.xcodeFile([])))
        #expect(empty.problems.first?.reason.contains("is empty, so the app claims no domain") == true)

        let onlySSO = try #require(Self.refusal(Self.xcodeFile(["authsrv:login.example.com"])))
        #expect(onlySSO.problems.first?.reason.contains("claims no domain for applinks") == true)

        #expect(Self.refusal("\"applinks:a.example\"")?.problems.first?.reason.hasPrefix("Expected a dictionary of entitlements") == true)
        #expect(Self.refusal("[1, \"applinks:a.example\"]")?.problems.first?.reason.contains("Entry 1") == true)
    }

    @Test func malformedAppIDIsRefused() throws {
        let file = Self.xcodeFile(["applinks:example.com"], extra: "\t<key>application-identifier</key>\n\t<string>com example app</string>\n")
        let refusal = try #require(Self.refusal(file))
        #expect(refusal.problems.first?.line == 9, "the line of the key")
        #expect(refusal.problems.first?.code == "app-id-malformed")
    }
}
