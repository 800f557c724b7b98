// libFuzzer target for the assetlinks.json core, built by scripts/fuzz against the AssetLinks module
// with the tests' ReferenceMatcher.swift compiled in unchanged (one reference for both).
//
// Two input forms:
// - a file (the first byte is `[`, `{` or whitespace; seeds from the tests' fixtures): read and
//   validated; everything Google is said to honour must be well-formed (relation grammar, upper-case
//   colon fingerprints); for each package `decide` agrees with `explain` on a few URLs; the file
//   diffed with itself is equal; include resolution with every include answering this same file ends
//   within the fetch budget;
// - patterns (anything else): the bytes pick dynamic rules and a URL from small alphabets, and the
//   compiled matcher must agree with the naive reference, rule by rule and for the whole list.

import AssetLinks
import Foundation

private let patternAlphabet: [Character] = ["/", "a", "b", ".", "*", "?", "\\", "=", "%", "é"]
private let urlPieces = ["/", "a", "b", ".", "*", "\\", "=", "%2F", "%C3%A9", "?q=a", "&q=b", ";r=1", "#a", "#"]

private struct Choices {
    var bytes: ArraySlice<UInt8>
    mutating func next() -> Int { Int(bytes.popFirst() ?? 0) }
    mutating func pattern() -> String { String((0..<(next() % 8)).map { _ in patternAlphabet[next() % patternAlphabet.count] }) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAssetLinks(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let first = bytes.first, [UInt8(ascii: "["), UInt8(ascii: "{"), 0x20, 0x0A, 0xEF].contains(first) {
        checkFile(bytes)
    } else {
        checkPatterns(bytes)
    }
    return 0
}

private func checkFile(_ bytes: [UInt8]) {
    let report = AssetLinksValidator.validate(bytes)
    for finding in report.findings where finding.message.isEmpty { fatalError("\(finding.code) without a message") }
    guard let file = report.file else { return }
    for statement in file.statements {
        for relation in statement.relations where relation.split(separator: "/", omittingEmptySubsequences: false).count != 2 {
            fatalError("honoured a malformed relation \(relation)")
        }
        for fingerprint in statement.fingerprints where fingerprint.utf8.count != 95 || fingerprint != fingerprint.uppercased() {
            fatalError("honoured a malformed fingerprint \(fingerprint)")
        }
    }
    let matcher = AppLinkMatcher(file)
    for package in file.packageNames.prefix(4) {
        for url in ["https://h.example/a/b?q=1#a", "https://h.example", "https://h.example/%C3%A9/x.y"] {
            let parsed = AndroidURL(url)
            let decision = matcher.decide(parsed, packageName: package)
            if decision != matcher.explain(parsed, packageName: package).decision { fatalError("explain disagrees on \(url)") }
        }
    }
    if !AssetLinksDiff.diff(old: file, new: file, urls: ["https://h.example/a"]).isBehaviourallyEqual {
        fatalError("a file differs from itself")
    }
    var fetches = 0
    _ = IncludeResolver.resolve(report.reading) { _ in
        fetches += 1
        return bytes
    }
    if fetches > IncludeResolver.budget { fatalError("\(fetches) fetches, over the budget") }
}

private func checkPatterns(_ bytes: [UInt8]) {
    var choices = Choices(bytes: bytes[...])
    var rules: [DynamicRule] = []
    for _ in 0..<(1 + choices.next() % 4) {
        var rule = DynamicRule()
        let shape = choices.next()
        if shape & 1 == 1 { rule.path = choices.pattern() }
        if shape & 2 == 2 { rule.query = [QueryEntry(name: "q", value: choices.pattern())] }
        if shape & 4 == 4 { rule.fragment = choices.pattern() }
        rule.exclude = shape & 8 == 8
        // Empty patterns drop the list when read from a file; the matcher itself never sees them.
        if rule.path == "" { rule.path = "*" }
        if rule.fragment == "" { rule.fragment = nil }
        if rule.query.first?.value == "" { rule.query = [] }
        rules.append(rule)
    }
    let url = "https://h.example" + (0..<(choices.next() % 10)).map { _ in urlPieces[choices.next() % urlPieces.count] }.joined()
    let parsed = AndroidURL(url)
    for rule in rules {
        if let path = rule.path,
           DynamicPattern(path).matches(Array(parsed.decodedPath.utf16)) != ReferenceMatcher.matches(path, Array(parsed.decodedPath.utf16)) {
            fatalError("pattern \(path) on \(parsed.decodedPath): compiled and reference disagree")
        }
    }
    let set = DynamicRuleSet(rules)
    let decided = set.decide(parsed)
    if decided != ReferenceMatcher.decide(rules, url: url) { fatalError("\(url) under \(rules.map(\.text)): reference disagrees") }
    if decided != set.explain(parsed).outcome { fatalError("\(url): explain disagrees") }
}
