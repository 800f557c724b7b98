import AASA
import Foundation

/// Validator benchmark: `AASAValidator.validate` on a realistic ~128 KB file, against the baseline
/// of merely parsing the same bytes with `JSONSerialization` (which checks nothing). Goal ≤ 5 ms.
enum ValidatorBench {
    static func run() {
        let file = realisticFile(targetSize: 128_000)
        let report = AASAValidator.validate(file)
        // For `perf record`: only the validator, many times.
        if let rounds = ProcessInfo.processInfo.environment["AASABENCH_PROFILE_VALIDATE"].flatMap(Int.init) {
            for _ in 0..<rounds { _ = AASAValidator.validate(file) }
            return
        }
        print("Validator: realistic file of \(file.count) bytes, \(report.document?.applinks?.details.count ?? 0) entries, "
              + "\(report.document?.applinks?.details.reduce(0) { $0 + $1.rules.count } ?? 0) rules, \(report.findings.count) findings")
        let data = Data(file)
        // Interleaved rounds on thread CPU time: the shared 2-core machine is often loaded far beyond
        // its cores, and wall time then measures the neighbours; CPU time of this thread does not.
        let timings = measureInterleaved(rounds: 101, [
            { _ = AASAValidator.validate(file) },
            { _ = AASAParser.parse(file) },
            { _ = try? JSONSerialization.jsonObject(with: data) },
        ])
        let (validate, parse, foundation) = (timings[0], timings[1], timings[2])
        print(row("AASAValidator.validate", validate, foundation))
        print(row("AASAParser.parse", parse, foundation))
        print(row("JSONSerialization.jsonObject (baseline)", foundation, foundation))
        print("  goal: validate ≤ 5 ms per 128 KB file: \(validate.median <= 0.005 ? "met" : "NOT met") (median thread CPU time)")

        let big = realisticFile(targetSize: 10_000_000)
        let bigData = Data(big)
        let bigTimings = measureInterleaved(rounds: 3, [
            { _ = AASAValidator.validate(big) },
            { _ = try? JSONSerialization.jsonObject(with: bigData) },
        ])
        print(row("validate 10 MB (\(big.count) bytes)", bigTimings[0], bigTimings[1]))
    }

    struct Timing {
        var median: Double
    }

    /// Median thread CPU time per body over `rounds` interleaved rounds (after one warm-up each), in seconds.
    static func measureInterleaved(rounds: Int, _ bodies: [() -> Void]) -> [Timing] {
        for body in bodies { body() }
        var samples = Array(repeating: [Double](), count: bodies.count)
        for _ in 0..<rounds {
            for (i, body) in bodies.enumerated() {
                let start = threadCPUTime()
                body()
                samples[i].append(threadCPUTime() - start)
            }
        }
        return samples.map { Timing(median: $0.sorted()[$0.count / 2]) }
    }

    static func threadCPUTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func row(_ name: String, _ timing: Timing, _ baseline: Timing) -> String {
        let ms = String(format: "%8.3f ms", timing.median * 1000)
        let ratio = String(format: "%5.2f×", timing.median / baseline.median)
        return "  \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(ms)   \(ratio) JSONSerialization"
    }

    /// A file shaped like a large retailer's: several apps, defaults, variables, components with
    /// paths, query dictionaries, fragments, exclusions and comments, pretty-printed, padded with
    /// more product sections until it reaches `targetSize` bytes.
    static func realisticFile(targetSize: Int) -> [UInt8] {
        let sections = ["shop", "product", "category", "deals", "account", "help", "stores", "recipes", "blog", "gift-cards",
                        "orders", "wishlist", "search", "brand", "collections", "events"]
        var entries: [String] = []
        var size = 600
        var index = 0
        while size < targetSize - 1_200 {
            let team = String(format: "ABCDE%05d", index % 97)
            var rules: [String] = []
            for (i, section) in sections.enumerated() {
                let path = "/\(section)/\(index)"
                switch i % 6 {
                case 0: rules.append(#"{"/": "\#(path)/*", "comment": "Everything under \#(section) \#(index)"}"#)
                case 1: rules.append(#"{"/": "\#(path)/private/*", "exclude": true, "comment": "Not in the app"}"#)
                case 2: rules.append(#"{"/": "\#(path)/item/????", "?": {"ref": "?*", "utm_source": "*"}}"#)
                case 3: rules.append(#"{"/": "/$(lang)_$(region)\#(path)/*", "caseSensitive": false}"#)
                case 4: rules.append(##"{"/": "\##(path)", "#": "tab-*"}"##)
                default: rules.append(#"{"/": "\#(path)/détail/*", "percentEncoded": false}"#)
                }
            }
            let entry = """
                  {
                    "appIDs": ["\(team).com.example.shop\(index)", "\(team).com.example.shop\(index).beta"],
                    "defaults": {"caseSensitive": true},
                    "components": [
                      \(rules.joined(separator: ",\n          "))
                    ]
                  }
            """
            entries.append(entry)
            size += entry.utf8.count + 2
            index += 1
        }
        let file = """
        {
          "applinks": {
            "defaults": {"percentEncoded": true},
            "substitutionVariables": {"food": ["burrito", "taco", "sourdough"], "section": ["shop", "deals"]},
            "details": [
        \(entries.joined(separator: ",\n"))
            ]
          },
          "webcredentials": {"apps": ["ABCDE00000.com.example.shop0"]},
          "appclips": {"apps": ["ABCDE00000.com.example.shop0.Clip"]}
        }
        """
        return Array(file.utf8)
    }
}
