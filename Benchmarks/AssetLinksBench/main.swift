// assetlinks.json benchmarks against the first-try baseline (Baseline.swift), in one process so the
// ratios share one machine state. Build and run in release:
//   swift build -c release --product AssetLinksBench && .build/release/AssetLinksBench
import AssetLinks
import BenchTiming
import Foundation

let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

func row(_ name: String, ours: Double, baseline: Double, note: String = "") {
    print(name.padding(toLength: 40, withPad: " ", startingAt: 0)
          + String(format: "%12.0f %14.0f %9.1f×  %@", ours, baseline, baseline / ours, note))
}

// MARK: Validating 1,000 statements

/// A large but ordinary file: apps with a release and an upload key and two relations, and web sites.
func largeFile(_ count: Int) -> String {
    let statements = (0..<count).map { i in
        i % 4 == 3
            ? #"{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "https://site\#(i).example.com"}}"#
            : #"{"relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"], "target": {"namespace": "android_app", "package_name": "com.example.app\#(i)", "sha256_cert_fingerprints": ["\#(fingerprint)", "AA:\#(fingerprint.dropFirst(3))"]}}"#
    }
    return "[\n" + statements.joined(separator: ",\n") + "\n]\n"
}

let large = largeFile(1_000)
let largeBytes = Array(large.utf8)
let largeData = Data(large.utf8)
// ASSETLINKSBENCH_PROFILE=validate: validate the large file in a loop for a profiler.
if ProcessInfo.processInfo.environment["ASSETLINKSBENCH_PROFILE"] == "validate" {
    let start = ContinuousClock.now
    while ContinuousClock.now - start < .seconds(5) { benchmarkSink &+= AssetLinksValidator.validate(largeBytes).findings.count }
    exit(0)
}
print("assetlinks.json benchmarks, release build; ours vs JSONSerialization + NSRegularExpression")
print("\nValidating a 1,000-statement file (\(largeBytes.count / 1024) KiB)")
print("case".padding(toLength: 40, withPad: " ", startingAt: 0) + "   ours ns/op  baseline ns/op     ratio")
let oursCount = AssetLinksValidator.validate(largeBytes).honouredStatements.count
let baseCount = Baseline.validate(largeData) ?? -1
do {
    let (ours, base) = Stopwatch.compare(rounds: 9, { benchmarkSink &+= AssetLinksValidator.validate(largeBytes).findings.count },
                                         { benchmarkSink &+= Baseline.validate(largeData) ?? 0 })
    row("validate (all findings, locations)", ours: ours, baseline: base,
        note: "\(oursCount) honoured relations; baseline \(baseCount) valid statements")
    let (read, base2) = Stopwatch.compare(rounds: 9, { benchmarkSink &+= AssetLinksReader.read(largeBytes).findings.count },
                                          { benchmarkSink &+= Baseline.validate(largeData) ?? 0 })
    row("read only (Google's statements)", ours: read, baseline: base2)
}

// MARK: Matching against 128 dynamic rules

/// 128 rules of the shapes real files use: excluded sections, product pages, print views, campaign
/// parameters, a fragment, and a catch-all at the end.
func rules(_ count: Int) -> String {
    var rules: [String] = []
    for i in 0..<(count - 1) {
        switch i % 6 {
        case 0: rules.append(#"{"/": "/account\#(i)/*", "exclude": true}"#)
        case 1: rules.append(#"{"/": "/p\#(i)/*/print", "exclude": true}"#)
        case 2: rules.append(#"{"?": {"utm_campaign": "c\#(i)"}}"#)
        case 3: rules.append(#"{"/": "/shop\#(i)/*"}"#)
        case 4: rules.append(#"{"/": "/orders\#(i)", "?": {"id": "?*"}}"#)
        default: rules.append(##"{"/": "/help\##(i)/*", "#": "open"}"##)
        }
    }
    rules.append(#"{"/": "*", "exclude": true}"#)
    return #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\#(fingerprint)"]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [\#(rules.joined(separator: ", "))]}}}]"#
}

let ruleFile = rules(128)
guard let file = AssetLinksReader.read(Array(ruleFile.utf8)).file else { fatalError("the rule file does not read") }
let matcher = AppLinkMatcher(file)
let baselineRules = Baseline.rules(Data(ruleFile.utf8))
let urls: [(String, String)] = [
    ("early exclude (rule 1)", "https://shop.example.com/account0/settings"),
    ("product page (rule 10)", "https://shop.example.com/shop9/shoes/42"),
    ("print view, non-backtracking (rule 8)", "https://shop.example.com/p7/12/print"),
    ("query parameter (rule 93)", "https://shop.example.com/x?lang=en&utm_campaign=c92"),
    ("late allow (rule 125)", "https://shop.example.com/orders124?id=77"),
    ("no rule but the catch-all (rule 128)", "https://shop.example.com/somewhere/else/entirely"),
    ("percent-encoded path (rule 4)", "https://shop.example.com/shop3/caf%C3%A9"),
]
// ASSETLINKSBENCH_PROFILE=match: loop one URL for a profiler instead of the report.
if ProcessInfo.processInfo.environment["ASSETLINKSBENCH_PROFILE"] == "match" {
    let start = ContinuousClock.now
    while ContinuousClock.now - start < .seconds(5) {
        for (_, url) in urls { benchmarkSink &+= matcher.decide(AndroidURL(url), packageName: "com.example.shop").name.count }
    }
    exit(0)
}
print("\nMatching against \(baselineRules.count) dynamic rules (URL parse + decide per call)")
print("URL".padding(toLength: 40, withPad: " ", startingAt: 0) + "   ours ns/op  baseline ns/op     ratio")
var totalOurs = 0.0, totalBase = 0.0
for (name, url) in urls {
    let ours = matcher.decide(AndroidURL(url), packageName: "com.example.shop").name
    let theirs = Baseline.decide(url, baselineRules)
    let (o, b) = Stopwatch.compare({ benchmarkSink &+= matcher.decide(AndroidURL(url), packageName: "com.example.shop").name.count },
                                   { benchmarkSink &+= Baseline.decide(url, baselineRules).count })
    totalOurs += o
    totalBase += b
    row(name, ours: o, baseline: b, note: ours == theirs ? ours : "DISAGREE ours=\(ours) baseline=\(theirs)")
}
row("all seven URLs", ours: totalOurs, baseline: totalBase)

// MARK: Adversarial input

/// 40 stars, each of which must find an `a`, on paths of growing length: the work must grow with the
/// path, not explode (a backtracking glob would try every way of splitting the path).
print("\nAdversarial: {\"/\": \"/*a*a…*a*b\"} (40 stars) on /aaa…a (no b), time per URL")
let hostile = "/" + String(repeating: "*a", count: 40) + "*b"
let hostileFile = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "a.b", "sha256_cert_fingerprints": ["\#(fingerprint)"]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "\#(hostile)"}]}}}]"#
guard let hostileLinks = AssetLinksReader.read(Array(hostileFile.utf8)).file else { fatalError("the adversarial file does not read") }
let hostileMatcher = AppLinkMatcher(hostileLinks)
let hostileBaseline = Baseline.rules(Data(hostileFile.utf8))
for length in [1_000, 10_000, 100_000] {
    let url = "https://h.example/" + String(repeating: "a", count: length)
    let (o, b) = Stopwatch.compare(rounds: 5, { benchmarkSink &+= hostileMatcher.decide(AndroidURL(url), packageName: "a.b").name.count },
                                   { benchmarkSink &+= Baseline.decide(url, hostileBaseline).count })
    row("path of \(length) characters", ours: o, baseline: b, note: String(format: "ours %.2f ns/char", o / Double(length)))
}
