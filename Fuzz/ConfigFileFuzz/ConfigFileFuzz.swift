// libFuzzer target for the config file reader (ConfigFile: Yams + libyaml + the walker), built by
// scripts/fuzz against Vocabulary, Yams and ConfigFile compiled from source.
//
// Beyond "does not crash" it checks what the reader and writer promise:
// - every problem and every recorded line lies inside the input;
// - a document that reads is written back (export) to text that reads again as the same document,
//   so `apply → export → apply` cannot drift because of quoting.

import ConfigFile
import Vocabulary

/// References in the inputs resolve against this; any other name is an unset variable (refused).
private let environment = ["A": "alpha", "SECRET": "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2Vj", "D": "$"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Lines as libyaml counts them: LF, CR LF, a lone CR, NEL, LS and PS each end one.
    let lines = String(decoding: bytes, as: UTF8.self).unicodeScalars.reduce(1) { n, s in
        n + (["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(s) ? 1 : 0)
    } + 1
    switch ConfigReader.read(bytes, environment: environment) {
    case .failure(let refusal):
        check(!refusal.problems.isEmpty, "a refusal without a problem")
        for p in refusal.problems { check(p.line >= 0 && p.line <= lines, "problem at line \(p.line) of \(lines): \(p.message)") }
    case .success(let document):
        for d in document.domains {
            for line in [d.lines.entry, d.lines.host] + d.lines.appIDs + d.lines.watchedURLs {
                check(line >= 0 && line <= lines, "domain line \(line) of \(lines)")
            }
        }
        let text: String
        do {
            text = try ConfigWriter.yaml(document)
        } catch {
            // Yams' emitter refuses some strings (e.g. ones it cannot encode); export would report it.
            return 0
        }
        switch ConfigReader.read(Array(text.utf8), environment: environment) {
        case .failure(let refusal):
            check(false, "the writer's output does not read back: \(refusal)\n---\n\(text)")
        case .success(let again):
            check(comparable(again) == comparable(document), "written and read back, the document differs:\n\(text)")
        }
    }
    return 0
}

/// The document without what only the original text has (lines, of every kind of entry: apps'
/// were once left in, so any file with an app whose lines moved "failed" to round-trip) or what the
/// writer never sees (channel values: it writes templates).
private func comparable(_ document: ConfigDocument) -> ConfigDocument {
    var d = document
    for i in d.domains.indices { d.domains[i].lines = .init() }
    for i in d.apps.indices { d.apps[i].lines = .init() }
    for i in d.channels.indices {
        d.channels[i].lines = .init()
        d.channels[i].settings = d.channels[i].settings.map { ($0.key, ConfigText(template: $0.text.template)) }
    }
    return d
}

/// A failed check is a crash, which is what libFuzzer records as a finding (with the input).
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}
