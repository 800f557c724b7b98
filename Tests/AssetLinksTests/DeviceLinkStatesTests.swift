import AssetLinks
import Testing
import Vocabulary

/// `device-not-verified`: pasted `adb shell pm get-app-links` output, read per package and host.
@Suite struct DeviceLinkStatesTests {
    /// As Android 14 prints it for two packages, with `--user` sections that are not host states.
    static let output = """
          com.example.shop:
            ID: 01234567-89ab-cdef-0123-456789abcdef
            Signatures: [AA:BB:CC]
            Domain verification state:
              shop.example: verified
              www.shop.example: 1026
              *.shop.example: none
            User 0:
              Verification link handling allowed: true
              Selection state:
                Disabled:
                  m.shop.example
          com.example.other:
            ID: 89abcdef-0123-4567-89ab-cdef01234567
            Signatures: [DD:EE:FF]
            Domain verification state:
              other.example: approved
              legacy.example: legacy_failure

        """

    @Test func readsEachPackagesHostStates() {
        let states = DeviceLinkStates.read(Self.output)
        #expect(states.entries.map { "\($0.packageName) \($0.host) \($0.state)" } == [
            "com.example.shop shop.example verified", "com.example.shop www.shop.example 1026", "com.example.shop *.shop.example none",
            "com.example.other other.example approved", "com.example.other legacy.example legacy_failure",
        ])
        #expect(DeviceLinkStates.read("garbage\n: :\nDomain verification state:\n  a.example: verified\n").entries.isEmpty,
                "no package heading, no states")
    }

    @Test func everyStateOutsideTheVerifiedSetIsAWarningNamingItsMeaning() {
        let states = DeviceLinkStates.read(Self.output)
        let shop = states.findings(packageName: "com.example.shop")
        #expect(shop.map(\.code) == ["device-not-verified", "device-not-verified"] && shop.allSatisfy { $0.severity == .warning })
        #expect(shop.first?.message == "On the device, com.example.shop is not verified for www.shop.example: state 1026 "
                + "(verifier error: rejected by the server); its links open in the browser or ask which app to use.")
        #expect(shop.first?.hint == "Fix the other findings for this host, then run adb shell pm verify-app-links --re-verify com.example.shop.")
        #expect(states.findings(packageName: "com.example.shop", host: "shop.example").isEmpty)
        #expect(states.findings(packageName: "com.example.shop", host: "*.shop.example").map(\.code) == ["device-not-verified"])
        #expect(states.findings(packageName: "com.example.other").map(\.message).first?.contains("legacy_failure (rejected by a legacy verifier") == true)
        for verified in ["verified", "approved", "migrated", "restored", "system_configured"] {
            #expect(DeviceLinkStates.Entry(packageName: "p.q", host: "h", state: verified).isVerified)
        }
        for unverified in ["none", "denied", "legacy_failure", "1024", "1031", "weird"] {
            #expect(!DeviceLinkStates.Entry(packageName: "p.q", host: "h", state: unverified).isVerified)
        }
        #expect(DeviceLinkStates.Entry(packageName: "p.q", host: "h", state: "1031").meaning == "a verifier-specific error")
    }
}
