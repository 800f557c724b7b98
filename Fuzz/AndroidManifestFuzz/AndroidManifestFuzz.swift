// libFuzzer target for the AndroidManifest.xml reader (AppManifests), which reads through
// Foundation's XMLParser (libxml2). Built by scripts/fuzz against the Vocabulary, LocatedJSON,
// AASA and AppManifests modules compiled from source.
//
// Checked beyond "does not crash":
// - every line a refusal or a filter names lies inside the input;
// - a verified host is a bare name (no scheme, path, port or stray *), and only autoVerify filters
//   give verified hosts;
// - every watched URL is an http(s) URL on a verified, non-wildcard host, with a path starting at /.

import Foundation
import Vocabulary
import AppManifests

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAndroidManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    let manifest: AndroidManifest
    do {
        manifest = try AndroidManifestReader.read(bytes)
    } catch {
        check(!error.problems.isEmpty, "a refusal without a reason")
        for problem in error.problems {
            if let line = problem.line { check(line >= 1 && line <= lines, "refusal at line \(line) of \(lines)") }
        }
        return 0
    }
    for filter in manifest.webFilters {
        check(filter.line >= 1 && filter.line <= lines, "filter at line \(filter.line) of \(lines)")
        check(!filter.schemes.isEmpty && filter.schemes.allSatisfy { $0 == "http" || $0 == "https" }, "schemes \(filter.schemes)")
    }
    let verified = manifest.verifiedHosts
    for host in verified {
        check(!host.host.isEmpty && !host.host.contains(where: { ":/?#*@".contains($0) }), "verified host \(host)")
    }
    let fromAutoVerify = Set(manifest.webFilters.filter(\.autoVerify).flatMap(\.hosts))
    check(Set(verified) == fromAutoVerify, "verified hosts not from autoVerify filters")
    let plainHosts = Set(verified.filter { !$0.isWildcard }.map(\.host))
    for url in manifest.watchedURLs {
        guard let scheme = url.range(of: "://"), ["http", "https"].contains(String(url[..<scheme.lowerBound])) else {
            check(false, "watched URL \(url) has no http(s) scheme")
            return 0
        }
        let rest = url[scheme.upperBound...]
        let host = String(rest.prefix { $0 != "/" })
        check(plainHosts.contains(host), "watched URL \(url) is on \(host), not a verified host")
        check(rest.dropFirst(host.count).hasPrefix("/"), "watched URL \(url) has no path")
    }
    return 0
}

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("android-manifest fuzz: \(message())\n".utf8))
        abort()
    }
}
