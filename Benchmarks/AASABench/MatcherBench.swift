import BenchTiming
import AASA
import Foundation

/// Matcher against the regex baseline, per pattern shape and for a whole document (issue 3 goals:
/// ≥ 10× on literal/prefix/suffix, ≥ 1× on mixed, no catastrophic case).
enum MatcherBench {
    static let app = "ABCDE12345.com.example.app"

    struct Shape {
        var name: String
        var component: String
        var url: String
    }

    static let shapes = [
        Shape(name: "literal /about/team", component: #"{"/": "/about/team"}"#, url: "https://example.com/about/team"),
        Shape(name: "prefix /buy/*", component: #"{"/": "/buy/*"}"#, url: "https://example.com/buy/shoes/42?ref=home"),
        Shape(name: "suffix */checkout", component: #"{"/": "*/checkout"}"#, url: "https://example.com/cart/12345/checkout"),
        Shape(name: "/id/????", component: #"{"/": "/id/????"}"#, url: "https://example.com/id/4812"),
        Shape(name: "mixed /a/*/b/?*/c", component: #"{"/": "/a/*/b/?*/c"}"#, url: "https://example.com/a/x/y/b/zz/c"),
        Shape(name: "query item + fragment", component: ##"{"/": "/help/*", "?": {"articleNumber": "????"}, "#": "*"}"##,
              url: "https://example.com/help/app?lang=en&articleNumber=1234#top"),
        Shape(name: "variables /$(lang)_$(region)/*", component: #"{"/": "/$(lang)_$(region)/*"}"#,
              url: "https://example.com/fr_CA/menu/today"),
    ]

    static func document(_ components: [String], variables: String = "") -> String {
        #"{"applinks": {\#(variables)"details": [{"appIDs": ["\#(app)"], "components": [\#(components.joined(separator: ", "))]}]}}"#
    }

    static func compile(_ json: String) -> CompiledDocument? {
        AASAParser.parse(Array(json.utf8)).document.map(CompiledDocument.init)
    }

    static func row(_ name: String, ours: Double, baseline: Double, note: String = "") {
        let ratio = baseline / ours
        print(name.padding(toLength: 36, withPad: " ", startingAt: 0)
              + String(format: "%12.0f %14.0f %9.1f×  %@", ours, baseline, ratio, note))
    }

    /// `AASABENCH_PROFILE=<shape index>`: loop one shape for a profiler instead of the report.
    static func profile(_ index: Int) {
        let shape = shapes[index % shapes.count]
        guard let compiled = compile(document([shape.component])) else { return }
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(10) {
            for _ in 0..<10_000 { benchmarkSink &+= compiled.decide(url: shape.url, appID: app).name.count }
        }
    }

    static func run() {
        if ProcessInfo.processInfo.environment["AASABENCH_PROFILE"] == "large" {
            largeFile(loopSeconds: 10)
            return
        }
        if let value = ProcessInfo.processInfo.environment["AASABENCH_PROFILE"], let index = Int(value) {
            profile(index)
            return
        }
        print("Matcher vs baseline (JSONSerialization + NSRegularExpression + URLComponents), release build")
        print("shape".padding(toLength: 36, withPad: " ", startingAt: 0) + "   ours ns/op  baseline ns/op     ratio")
        for shape in shapes {
            let json = document([shape.component])
            guard let compiled = compile(json),
                  let baseline = try? RegexBaseline(json: Data(json.utf8), appID: app) else {
                print("\(shape.name): could not load"); continue
            }
            let ours = compiled.decide(url: shape.url, appID: app).name
            let theirs = baseline.decide(shape.url)
            let (oursNs, baseNs) = Stopwatch.compare({ benchmarkSink &+= compiled.decide(url: shape.url, appID: app).name.count },
                                                     { benchmarkSink &+= baseline.decide(shape.url).count })
            row(shape.name, ours: oursNs, baseline: baseNs, note: ours == theirs ? ours : "DISAGREE ours=\(ours) baseline=\(theirs)")
        }
        adversarial()
        wholeDocument()
        largeFile()
    }

    /// Compiling a file near Apple's 128 KB limit, every rule using the big built-in lists.
    static func largeFile(loopSeconds: Int = 0) {
        let components = (0..<1_500).map { #"{"/": "/$(lang)_$(region)/p\#($0)/*"}"# }
        let json = document(components)
        guard let document = AASAParser.parse(Array(json.utf8)).document else { return }
        let compileNs = loopSeconds > 0 ? 0
            : Stopwatch.nanosecondsPerCall(rounds: 3) { benchmarkSink &+= CompiledDocument(document).appIDs.count }
        let compiled = CompiledDocument(document)
        let url = "https://example.com/fr_CA/p1499/x"
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(loopSeconds) { benchmarkSink &+= compiled.decide(url: url, appID: app).name.count }
        let matchNs = Stopwatch.nanosecondsPerCall(rounds: 5) { benchmarkSink &+= compiled.decide(url: url, appID: app).name.count }
        print("1,500 rules of $(lang)_$(region) (\(json.utf8.count / 1024) KB): compile \(String(format: "%.1f", compileNs / 1e6)) ms, "
              + "last-rule match \(String(format: "%.1f", matchNs / 1e3)) µs")
    }

    /// `*a*a…*b` against "/" + 512 `a`s: a backtracking regex needs about 512^k steps for k stars.
    static func adversarial() {
        let url = "https://example.com/" + String(repeating: "a", count: 512)
        var baselineGaveUp = false
        for k in [1, 2, 3, 4, 256] {
            let pattern = String(repeating: "*a", count: k) + "*b"
            let json = document([#"{"/": "\#(pattern)"}"#])
            guard let compiled = compile(json), let baseline = try? RegexBaseline(json: Data(json.utf8), appID: app) else { continue }
            let oursNs = Stopwatch.nanosecondsPerCall { benchmarkSink &+= compiled.decide(url: url, appID: app).name.count }
            let name = "adversarial (*a)x\(k)*b, 512 a"
            if baselineGaveUp {
                print(name.padding(toLength: 36, withPad: " ", startingAt: 0)
                      + String(format: "%12.0f %14@ %10@  baseline not run (grows ~512x per star)", oursNs, "-", "-"))
                continue
            }
            let single = Stopwatch.once { benchmarkSink &+= baseline.decide(url).count }
            let baseNs = single > 2e8 ? single : Stopwatch.nanosecondsPerCall(rounds: 3) {
                benchmarkSink &+= baseline.decide(url).count
            }
            row(name, ours: oursNs, baseline: baseNs, note: compiled.decide(url: url, appID: app).name)
            if single > 2e8 { baselineGaveUp = true }
        }
        // The same shape through the automaton (a variable forces it off the fast path).
        let viaVariable = document([#"{"/": "\#(String(repeating: "*$(v)", count: 256))*b"}"#],
                                   variables: #""substitutionVariables": {"v": ["a"]}, "#)
        if let compiled = compile(viaVariable) {
            let oursNs = Stopwatch.nanosecondsPerCall { benchmarkSink &+= compiled.decide(url: url, appID: app).name.count }
            print("adversarial via automaton, 256 stars".padding(toLength: 36, withPad: " ", startingAt: 0)
                  + String(format: "%12.0f", oursNs) + "  (no baseline: same regex as above)")
        }
    }

    /// A realistic 128-rule file against 8 URLs: most URLs are decided late or not at all, so every
    /// rule is tried.
    static func wholeDocument() {
        var components: [String] = []
        for i in 0..<128 {
            switch i % 8 {
            case 0: components.append(#"{"/": "/section\#(i)/item/*"}"#)
            case 1: components.append(#"{"/": "/legal/\#(i)/*", "exclude": true}"#)
            case 2: components.append(#"{"/": "/p\#(i)/????"}"#)
            case 3: components.append(#"{"/": "*/promo\#(i)"}"#)
            case 4: components.append(#"{"/": "/help\#(i)/*", "?": {"articleNumber": "????"}}"#)
            case 5: components.append(#"{"/": "/landing\#(i)", "caseSensitive": false}"#)
            case 6: components.append(#"{"/": "/a\#(i)/*/b/?*/c"}"#)
            default: components.append(##"{"#": "share\##(i)-*"}"##)
            }
        }
        let json = document(components)
        let urls = [
            "https://example.com/section120/item/9",
            "https://example.com/legal/121/terms",
            "https://example.com/p122/abcd",
            "https://example.com/x/y/promo123",
            "https://example.com/help124/faq?articleNumber=1234",
            "https://example.com/LANDING125",
            "https://example.com/nothing/matches/here?q=1",
            "https://example.com/a126/x/b/yy/c",
        ]
        guard let compiled = compile(json), let baseline = try? RegexBaseline(json: Data(json.utf8), appID: app) else {
            print("128-rule document: could not load"); return
        }
        let ours = urls.map { compiled.decide(url: $0, appID: app).name }
        let theirs = urls.map(baseline.decide)
        let agree = ours == theirs ? "agree: " + ours.joined(separator: ",") : "DISAGREE ours=\(ours) baseline=\(theirs)"
        let (oursNs, baseNs) = Stopwatch.compare(
            { for url in urls { benchmarkSink &+= compiled.decide(url: url, appID: app).name.count } },
            { for url in urls { benchmarkSink &+= baseline.decide(url).count } })
        row("128 rules x 8 URLs (match only)", ours: oursNs, baseline: baseNs, note: agree)
        let data = Data(json.utf8)
        let bytes = Array(json.utf8)
        let (oursLoad, baseLoad) = Stopwatch.compare(rounds: 5, {
            guard let document = AASAParser.parse(bytes).document else { return }
            let compiled = CompiledDocument(document)
            for url in urls { benchmarkSink &+= compiled.decide(url: url, appID: app).name.count }
        }, {
            guard let baseline = try? RegexBaseline(json: data, appID: app) else { return }
            for url in urls { benchmarkSink &+= baseline.decide(url).count }
        })
        row("128 rules x 8 URLs (load + match)", ours: oursLoad, baseline: baseLoad, note: "parse + compile included")
    }
}
