// Reading a stored version back (association_versions.reading) against reading the file again from
// its bytes, in one process so the ratio shares one machine state. Build and run in release:
//   swift build -c release --product ReadingBench && .build/release/ReadingBench
// A stored reading is worth keeping only while decoding it is cheaper than what it saves: the
// pretty-printed text with its pointers and the typed document, made from the bytes
// (`VersionReading(aasa:)` / `VersionReading(assetLinks:)`). The ratio printed is decode ÷ re-read:
// below 1.0 the stored reading pays.
import AASA
import AssetLinks
import BenchTiming
import Foundation
import Store
import Vocabulary

/// An ordinary AASA file: `entries` apps with a handful of components each.
func aasaFile(entries: Int) -> [UInt8] {
    let details = (0..<entries).map { i in
        """
            {
              "appIDs": ["ABCDE\(String(format: "%05d", i)).com.example.shop", "ABCDE\(String(format: "%05d", i)).com.example.shop.beta"],
              "components": [
                {"/": "/shop/\(i)/*", "comment": "Everything in the shop"},
                {"/": "/shop/\(i)/private/*", "exclude": true, "comment": "Not in the app"},
                {"/": "/p/\(i)/????", "?": {"ref": "?*"}},
                {"/": "/help/*", "#": "tab-*", "caseSensitive": false}
              ]
            }
        """
    }
    return Array("""
        {
          "applinks": {
            "defaults": {"percentEncoded": true},
            "details": [
        \(details.joined(separator: ",\n"))
            ]
          },
          "webcredentials": {"apps": ["ABCDE00000.com.example.shop"]}
        }
        """.utf8)
}

/// An ordinary assetlinks.json: `count` app statements with two keys each.
func assetLinksFile(count: Int) -> [UInt8] {
    let key = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    let statements = (0..<count).map { i in
        #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app\#(i)", "sha256_cert_fingerprints": ["\#(key)", "AA:\#(key.dropFirst(3))"]}}"#
    }
    return Array(("[\n" + statements.joined(separator: ",\n") + "\n]\n").utf8)
}

/// The spelling stored from migration 0033 until 0053 — an object per line — kept here to measure
/// what the compact spelling saved.
struct SpellingBefore0053<Document: Codable & Sendable & Hashable>: Codable {
    struct Line: Codable { var text: String; var pointer: String }
    struct Text: Codable { var pretty: Bool; var lines: [Line] }
    var size: Int
    var text: Text
    var document: Document?

    init(_ r: VersionReading<Document>) {
        size = r.size
        text = Text(pretty: r.text.pretty, lines: r.text.lines.map { Line(text: $0.text, pointer: $0.pointer) })
        document = r.document
    }
}

func row(_ name: String, bytes: Int, stored: Int, decode: Double, reread: Double, before: (stored: Int, decode: Double)) {
    print(name.padding(toLength: 26, withPad: " ", startingAt: 0)
          + String(format: "%7d %7d %5.1f× %9.1f %9.1f %6.2f │ %7d %5.1f× %9.1f %6.2f", bytes, stored, Double(stored) / Double(bytes),
                   decode / 1000, reread / 1000, decode / reread,
                   before.stored, Double(before.stored) / Double(bytes), before.decode / 1000, before.decode / reread))
}

func measure<Document>(_ name: String, _ bytes: [UInt8], read: @escaping ([UInt8]) -> VersionReading<Document>) {
    let reading = read(bytes)
    guard let stored = try? StoredJSON.encode(reading),
          (try? StoredJSON.decode(VersionReading<Document>.self, from: stored)) == reading,
          let old = try? StoredJSON.encode(SpellingBefore0053(reading)) else {
        print("\(name): the stored reading does not read back equal"); exit(1)
    }
    let (decode, reread) = Stopwatch.compare({
        if let r = try? StoredJSON.decode(VersionReading<Document>.self, from: stored) { benchmarkSink &+= r.size }
    }, {
        benchmarkSink &+= read(bytes).size
    })
    let (oldDecode, _) = Stopwatch.compare({
        if let r = try? StoredJSON.decode(SpellingBefore0053<Document>.self, from: old) { benchmarkSink &+= r.size }
    }, {
        benchmarkSink &+= read(bytes).size
    })
    row(name, bytes: bytes.count, stored: stored.utf8.count, decode: decode, reread: reread, before: (old.utf8.count, oldDecode))
}

// `--tester-calls ENTRIES N`: only the tester's three ways, N calls each on a file of ENTRIES apps, for
// an instruction count that a loaded machine does not disturb:
//   valgrind --tool=callgrind .build/release/ReadingBench --tester-calls 16 50, then
//   callgrind_annotate --inclusive=yes: TesterCase.reparse / wholeReading / documentOnly, each ÷ N.
if let i = CommandLine.arguments.firstIndex(of: "--tester-calls"), i + 2 < CommandLine.arguments.count,
   let entries = Int(CommandLine.arguments[i + 1]), let calls = Int(CommandLine.arguments[i + 2]) {
    let c = TesterCase(entries: entries)
    for _ in 0..<calls { benchmarkSink &+= c.reparse() &+ c.wholeReading() &+ c.documentOnly() }
    print("tester, \(entries) apps: \(calls) calls of each way (\(benchmarkSink))")
    exit(0)
}

print("Stored reading vs reading the bytes again (release; best of 21 alternating rounds)")
print("load average: \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?")")
print(String(repeating: " ", count: 26) + "           now (0053)                            │ before (0033 spelling)")
print("file".padding(toLength: 26, withPad: " ", startingAt: 0) + "  bytes  stored ×file decode µs reread µs  ratio │  stored ×file decode µs  ratio")
for entries in [1, 4, 16, 64] {
    measure("AASA, \(entries) app\(entries == 1 ? "" : "s")", aasaFile(entries: entries), read: VersionReading.init(aasa:))
}
for count in [1, 4, 32] {
    measure("assetlinks, \(count) statement\(count == 1 ? "" : "s")", assetLinksFile(count: count), read: VersionReading.init(assetLinks:))
}
print("ratio = decode ÷ re-read: below 1.00 the stored reading is cheaper than reading the file again")

// The URL tester against a registered domain's file: it used to validate the stored bytes on every
// request; it now decodes the stored reading's document alone (`StoredVersions.appleDocument`,
// `reading->'document'`: the tester shows no text). "whole reading" is what decoding all of the
// stored reading cost (before 321256a). Each then compiles the document and explains the URL for
// every app, as the tester does.
struct TesterCase {
    let entries: Int
    let bytes: [UInt8]
    let url: String
    let document: AASADocument
    let stored: String
    let storedDocument: String

    init(entries: Int) {
        self.entries = entries
        bytes = aasaFile(entries: entries)
        url = "https://example.com/shop/\(entries / 2)/item?ref=x"
        let reading = VersionReading(aasa: bytes)
        guard let document = reading.document, let stored = try? StoredJSON.encode(reading),
              let storedDocument = try? StoredJSON.encode(document),
              (try? StoredJSON.decode(AASADocument.self, from: storedDocument)) == document else {
            print("AASA, \(entries) apps: the stored document does not read back equal"); exit(1)
        }
        (self.document, self.stored, self.storedDocument) = (document, stored, storedDocument)
    }

    func answer(_ document: AASADocument?) -> Int {
        guard let document else { return 0 }
        let compiled = CompiledDocument(document)
        return compiled.apps(for: url).count + compiled.appIDs.map { compiled.explain(url: url, appID: $0).trace.count }.reduce(0, +)
    }

    // Not inlined, so that callgrind's inclusive cost of each is one way's whole work.
    @inline(never) func reparse() -> Int { answer(AASAValidator.validate(bytes).document) }
    @inline(never) func wholeReading() -> Int {
        answer((try? StoredJSON.decode(VersionReading<AASADocument>.self, from: stored))?.document)
    }
    @inline(never) func documentOnly() -> Int { answer(try? StoredJSON.decode(AASADocument.self, from: storedDocument)) }
}

func testerRow(entries: Int) {
    let c = TesterCase(entries: entries)
    let (after, before) = Stopwatch.compare({ benchmarkSink &+= c.wholeReading() }, { benchmarkSink &+= c.reparse() })
    let (documentOnly, _) = Stopwatch.compare({ benchmarkSink &+= c.documentOnly() }, { benchmarkSink &+= c.reparse() })
    let (answerOnly, _) = Stopwatch.compare({ benchmarkSink &+= c.answer(c.document) }, { benchmarkSink &+= c.reparse() })
    print("AASA, \(entries) app\(entries == 1 ? "" : "s")".padding(toLength: 26, withPad: " ", startingAt: 0)
          + String(format: "%7d %11.1f %11.1f %6.2f %11.1f %6.2f %11.1f", c.bytes.count, before / 1000, after / 1000, after / before,
                   documentOnly / 1000, documentOnly / before, answerOnly / 1000))
}

print("")
print("URL tester on a stored file, each + compile + explain every app (the last column: that alone)")
print("file".padding(toLength: 26, withPad: " ", startingAt: 0) + "  bytes validate µs  reading µs  ratio document µs  ratio  explain µs")
for entries in [1, 4, 16, 64] { testerRow(entries: entries) }
