// libFuzzer target for the entitlements reader (AppManifests): XML and binary property lists, the
// JSON array, the old ASCII plist format — whatever the bytes are, Foundation's
// PropertyListSerialization and XMLParser read them under it. Built by scripts/fuzz against the
// Vocabulary, LocatedJSON, AASA and AppManifests modules compiled from source.
//
// Checked beyond "does not crash":
// - every line a refusal or a domain names lies inside the input;
// - an accepted domain's host is a bare name (no scheme, path, port, empty host), its `?mode=` is
//   one of the modes, and the entry it came from is kept as written;
// - the accepted domains, written back as a binary property list array, read as the same domains.

import Foundation
import Vocabulary
import AppManifests

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEntitlements(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    let entitlements: AppleEntitlements
    do {
        entitlements = try EntitlementsReader.read(bytes)
    } catch {
        check(!error.problems.isEmpty, "a refusal without a reason")
        for problem in error.problems {
            check(!problem.reason.isEmpty, "an empty reason")
            if let line = problem.line { check(line >= 1 && line <= lines, "refusal at line \(line) of \(lines)") }
        }
        return 0
    }
    check(!entitlements.domains.isEmpty, "accepted with no domain")
    for domain in entitlements.domains {
        check(!domain.host.isEmpty, "empty host from \(domain.entitlement)")
        check(!domain.host.contains(where: { ":/?#*".contains($0) }), "host \(domain.host) from \(domain.entitlement)")
        check(domain.entitlement.hasPrefix(domain.service.rawValue + ":"), "\(domain.entitlement) is not a \(domain.service) entry")
        check(domain.modes.isEmpty || domain.entitlement.hasSuffix("?mode=\(domain.modes.mode ?? "")"), "mode of \(domain.entitlement)")
        if let line = domain.line { check(line >= 1 && line <= lines, "\(domain.entitlement) at line \(line) of \(lines)") }
    }
    for appID in entitlements.appIDs { check((try? AppID(appID.text)) == appID, "app ID \(appID) does not pass the rule") }

    let written = entitlements.domains.map(\.entitlement) + entitlements.ignored.map(\.entitlement)
    guard let binary = try? PropertyListSerialization.data(fromPropertyList: written, format: .binary, options: 0) else {
        check(false, "cannot write the domains back")
        return 0
    }
    do {
        let again = try EntitlementsReader.read(Array(binary))
        check(again.domains.map(\.entitlement) == entitlements.domains.map(\.entitlement), "binary round trip changed the domains")
        check(again.domains.map(\.modes) == entitlements.domains.map(\.modes), "binary round trip changed the modes")
    } catch {
        check(false, "the accepted domains are refused when written back: \(error)")
    }
    return 0
}

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("entitlements fuzz: \(message())\n".utf8))
        abort()
    }
}
