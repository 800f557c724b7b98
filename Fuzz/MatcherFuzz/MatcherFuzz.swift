// libFuzzer target for the matcher, built by scripts/fuzz against the AASA module with the tests'
// ReferenceMatcher.swift and DocumentBuilder.swift compiled in unchanged, so the fuzzer and the
// property tests share one reference.
//
// Two input forms:
// - structured (the first byte is not `{`): the bytes pick a small document (rules, settings,
//   defaults, substitution variables) and a URL from pieces, so libFuzzer's mutations explore
//   patterns rather than JSON syntax;
// - JSON (`{`…): an association file, a newline, a URL; the seeds are the cases of the tests'
//   matching-vectors.json in this form. The reference is asked only when Foundation's URL split
//   (the reference's) and the product's agree on the URL's parts.
// Checked for every app:
// - `decide` (the fast path) agrees with the naive reference matcher of the tests;
// - `explain` decides as `decide` does, and its deciding rule really matched;
// - the in-place byte path agrees with the general path over `URLParts`, and `decisions(url:)`;
// the last two also for the input's remaining bytes taken as a raw URL (any bytes at all).
//
// The reference is exponential in the worst case, so sizes are kept small (scripts/fuzz caps the
// input at 256 bytes; pieces per pattern are capped below).

import Foundation
import Vocabulary
@testable import AASA

/// Pieces whose meaning the reference and the product define alike (the reference splits URLs with
/// Foundation, which refuses invalid escapes and raw non-ASCII, so the URL alphabet has neither).
private let patternPieces = ["a", "b", "A", "/", "*", "?", "$(v)", "$(digit)", "é", "É", "%41", "$(w)", "1", "**",
                             "%2F", "ab", "$(upper)", "$(lower)", "$(unknown)", "-", ".", "%", "$(", ")"]
private let valuePieces = ["a", "b", "A", "*", "?", "/", "1", "é", ""]
private let pathPieces = ["a", "b", "A", "B", "/", "1", "%41", "%C3%A9", "%c3%a9", "c", "//", "%2F", "%25", "-", "."]
private let queryPieces = ["a=1", "b=2", "a", "&", "=", "%61=1", "a=%41", "b=", "A=a", "x"]
private let fragmentPieces = ["x", "A", "y", "%41", "a", "1", "/"]
private let apps = ["T.one", "T.two", "T.three"]

/// Reads the fuzz input as a stream of choices; past its end every choice is 0.
private struct Choices {
    var bytes: ArraySlice<UInt8>
    mutating func next() -> Int { Int(bytes.popFirst() ?? 0) }
    mutating func flag() -> Bool { next() & 1 == 1 }
    mutating func optionalFlag() -> Bool? {
        switch next() % 3 { case 0: nil; case 1: true; default: false }
    }
    mutating func text(_ pieces: [String], max: Int) -> String {
        (0..<(next() % (max + 1))).map { _ in pieces[next() % pieces.count] }.joined()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMatcher(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeBufferPointer(start: data, count: size)
    if input.first == UInt8(ascii: "{") {
        let newline = input.lastIndex(of: 0x0A) ?? input.count
        guard let document = AASAParser.parse(Array(input[..<newline])).document else { return 0 }
        let url = String(decoding: input[min(newline + 1, input.count)...], as: UTF8.self)
        let compiled = CompiledDocument(document)
        if splitsAlike(url) { checkReference(document, compiled, url, apps: compiled.appIDs.prefix(4)) }
        checkPaths(compiled, url, apps: Array(compiled.appIDs.prefix(4)))
        return 0
    }
    var choices = Choices(bytes: ArraySlice(input))
    let document = makeDocument(&choices)
    let compiled = CompiledDocument(document)
    let url = makeURL(&choices)
    checkReference(document, compiled, url, apps: apps[...])
    checkPaths(compiled, url, apps: apps)
    // Whatever is left is a raw URL, arbitrary bytes included.
    checkPaths(compiled, String(decoding: choices.bytes, as: UTF8.self), apps: apps)
    return 0
}

private func checkReference(_ document: AASADocument, _ compiled: CompiledDocument, _ url: String, apps: ArraySlice<String>) {
    for app in apps {
        let fast = compiled.decide(url: url, appID: app)
        let reference = ReferenceMatcher.decide(document, url: url, appID: app)
        check(fast.name == reference, "decide \(fast.name), reference \(reference): \(url) for \(app) in \(document)")
    }
}

/// True when Foundation (which the reference uses) and `URLParts` split `url` into the same parts.
private func splitsAlike(_ url: String) -> Bool {
    guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
          scheme == "https" || scheme == "http" else { return false }
    let parts = URLParts(parsing: url)
    return parts.path == components.percentEncodedPath && parts.query == components.percentEncodedQuery
        && parts.fragment == components.percentEncodedFragment
}

private func makeDocument(_ choices: inout Choices) -> AASADocument {
    typealias B = DocumentBuilder
    let entries = (0..<(1 + choices.next() % 3)).map { _ -> DetailEntry in
        let chosen = apps.filter { _ in choices.flag() }
        let entryApps = chosen.isEmpty ? [apps[choices.next() % apps.count]] : chosen
        if choices.next() % 5 == 0 {
            let paths = (0..<(1 + choices.next() % 3)).map { _ in
                (choices.flag() ? "NOT " : "") + choices.text(patternPieces, max: 5)
            }
            return B.entry(entryApps, B.legacy(paths), source: .paths)
        }
        let rules = (0..<(choices.next() % 4)).map { _ in makeRule(&choices) }
        return B.entry(entryApps, rules, defaults: makeDefaults(&choices))
    }
    var variables: KeyValuePairs<String, [String]> = [:]
    if choices.flag() {
        let v = (0..<(choices.next() % 4)).map { _ in choices.text(valuePieces, max: 3) }
        let w = (0..<(choices.next() % 3)).map { _ in choices.text(valuePieces, max: 2) }
        variables = ["v": v, "w": w]
    }
    return B.document(entries, defaults: makeDefaults(&choices), variables: variables)
}

private func makeRule(_ choices: inout Choices) -> Rule {
    let path: String? = choices.flag() ? choices.text(patternPieces, max: 7) : nil
    let query: QuerySpec? = switch choices.next() % 5 {
    case 0: .string(choices.text(["a", "=", "&", "*", "?", "1", "$(digit)", "%41"], max: 4))
    case 1: .items((0..<(1 + choices.next() % 2)).map { _ in
        QueryItemPattern(name: ["a", "b", "A", ""][choices.next() % 4],
                         pattern: choices.text(["1", "*", "?", "a", "$(digit)", "%41", "A"], max: 3))
    })
    case 2: .voided
    default: nil
    }
    let fragment: String? = choices.flag() ? choices.text(["x", "*", "?", "A", "$(v)", "%41"], max: 3) : nil
    return DocumentBuilder.rule(path, query: query, fragment: fragment, exclude: choices.optionalFlag(),
                                caseSensitive: choices.optionalFlag(), percentEncoded: choices.optionalFlag())
}

private func makeDefaults(_ choices: inout Choices) -> RuleSettings? {
    guard choices.flag() else { return nil }
    return RuleSettings(exclude: choices.optionalFlag(), caseSensitive: choices.optionalFlag(),
                        percentEncoded: choices.optionalFlag())
}

private func makeURL(_ choices: inout Choices) -> String {
    var url = "https://example.com" + (choices.flag() ? "/" : "") + choices.text(pathPieces, max: 6)
    if choices.flag() { url += "?" + choices.text(queryPieces, max: 3) }
    if choices.flag() { url += "#" + choices.text(fragmentPieces, max: 3) }
    return url
}

/// `decide` on the URL string, on `URLParts`, in `decisions(url:)` and in `explain` agree.
private func checkPaths(_ compiled: CompiledDocument, _ url: String, apps: [String]) {
    let parts = URLParts(parsing: url)
    let decisions = compiled.decisions(url: url)
    for app in apps + ["T.absent"] {
        let fast = compiled.decide(url: url, appID: app)
        check(compiled.decide(parts: parts, appID: app) == fast, "byte path \(fast) vs URLParts on \(url.debugDescription) for \(app)")
        check((decisions.first { $0.appID == app }?.decision ?? .noMatch) == fast, "decisions(url:) vs decide on \(url.debugDescription)")
        let explanation = compiled.explain(url: url, appID: app)
        check(explanation.decision == fast, "explain \(explanation.decision) vs decide \(fast) on \(url.debugDescription) for \(app)")
        check(explanation.decidingRule.map { $0.matched && $0.checks.allSatisfy(\.matched) } ?? true,
              "explain's deciding rule did not match on \(url.debugDescription)")
    }
}

/// A failed check is a crash, which is what libFuzzer records as a finding (with the input).
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}
