import Foundation
import Glibc
import TestSupport
import Testing

/// The served contract, judged by the tools operators and API clients use: the real `serve` process
/// on a real PostgreSQL with a real token, its OpenAPI document read by openapi-spec-validator and
/// exercised by Schemathesis, its /metrics read by promtool. The Python tools come from the venv
/// `scripts/bootstrap --test` makes under .build/pyenv; promtool from Debian's `prometheus` package.
@Suite(.serialized) struct APIContractTests {
    @Test func metricsPassPromtool() throws {
        let server = try ContractServer()
        // A domain with a check, so the labelled series and the histogram have samples to lint.
        let created = try server.api("POST", "/api/v1/domains", json: #"{"host": "metrics.example"}"#)
        #expect(created.status == 201, "\(created.body)")
        let metrics = try PlainHTTPResponse.get(port: server.port, path: "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.body.contains("aasa_check_latency_seconds_bucket{le=\"+Inf\"}"))
        let promtool = try ExternalTool.run(ExternalTool.path("promtool", hint: "Debian's prometheus package"),
                                            ["check", "metrics"], stdin: Array(metrics.body.utf8))
        #expect(promtool.status == 0, "promtool check metrics:\n\(promtool.output)\n\(metrics.body)")
    }

    /// The Grafana dashboard in docs/ asks only for metrics /metrics exports, in PromQL promtool
    /// accepts (each query checked as a recording rule, Grafana's $__rate_interval as 5m).
    @Test func theGrafanaDashboardQueriesWhatMetricsExports() throws {
        let server = try ContractServer()
        let metrics = try PlainHTTPResponse.get(port: server.port, path: "/metrics").body
        let file = ExternalTool.root.appendingPathComponent("docs/grafana/aasa-monitor.json")
        let dashboard = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var expressions: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let expr = object["expr"] as? String { expressions.append(expr) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(dashboard)
        #expect(expressions.count >= 10)
        var names = Set<String>()
        for expr in expressions {
            for match in expr.matches(of: /aasa_[a-z_]+/) {
                var name = String(match.output)
                for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) && !metrics.contains("# TYPE \(name) ") {
                    name.removeLast(suffix.count)
                }
                names.insert(name)
            }
        }
        for metric in ["aasa_domains", "aasa_failing_domains", "aasa_check_latency_seconds", "aasa_deliveries", "aasa_check_queue_depth"] {
            #expect(names.contains(metric), "the dashboard has no panel on \(metric)")
        }
        for name in names.sorted() {
            #expect(metrics.contains("# TYPE \(name) "), "the dashboard queries \(name), which /metrics does not export")
        }
        let scratch = try ScratchDirectory()
        let rules = expressions.enumerated().map { i, expr in
            "      - record: dashboard:query\(i)\n        expr: \(JSONStringLiteralForYAML.quoted(expr.replacingOccurrences(of: "$__rate_interval", with: "5m")))"
        }.joined(separator: "\n")
        let rulesFile = try scratch.write("rules.yml", "groups:\n  - name: dashboard\n    rules:\n\(rules)\n")
        let check = try ExternalTool.run(ExternalTool.path("promtool", hint: "Debian's prometheus package"), ["check", "rules", rulesFile])
        #expect(check.status == 0, "promtool check rules:\n\(check.output)")
    }

    @Test func theServedDocumentIsValidOpenAPI() throws {
        let server = try ContractServer()
        let scratch = try ScratchDirectory()
        let document = try PlainHTTPResponse.get(port: server.port, path: "/api/v1/openapi.json")
        #expect(document.status == 200)
        let file = try scratch.write("openapi.json", document.body)
        let validator = try ExternalTool.run(ExternalTool.python("openapi-spec-validator"), [file])
        #expect(validator.status == 0, "openapi-spec-validator:\n\(validator.output)")
        #expect(validator.output.contains("OK"), "\(validator.output)")
    }

    /// Schemathesis with every check and every phase, the stateful one following the document's
    /// links, finds nothing: every status each operation answers is documented, every schema-valid
    /// request is accepted (or refused with a documented 409/422), every schema-invalid one refused.
    @Test func schemathesisFindsNoFailure() throws {
        let server = try ContractServer()
        let scratch = try ScratchDirectory()
        let junit = scratch.url.appendingPathComponent("junit.xml").path
        let config = ExternalTool.root.appendingPathComponent("Tests/Contract/schemathesis.toml").path
        let run = try ExternalTool.run(try ExternalTool.python("schemathesis"), [
            "--config-file", config, "run", server.origin + "/api/v1/openapi.json",
            "--header", "Authorization: Bearer \(server.token)", "--checks", "all",
            "--report", "junit", "--report-junit-path", junit, "--no-color",
        ], directory: scratch.url, timeout: .seconds(1200))
        // The whole report when it fails: which operation, which check, and the curl line to reproduce it.
        #expect(run.status == 0, "schemathesis exited \(run.status):\n\(run.output.suffix(30_000))")
        // It really ran: every phase, and a case count worth the name.
        let summary = run.stdout
        for phase in ["Examples", "Coverage", "Fuzzing", "Stateful"] {
            #expect(summary.contains("✅ \(phase)"), "phase \(phase) did not pass or did not run:\n\(summary.suffix(4000))")
        }
        let generated = summary.firstMatch(of: /(\d+) generated/).flatMap { Int($0.1) } ?? 0
        #expect(generated >= 500, "only \(generated) cases:\n\(summary.suffix(4000))")
        print("schemathesis: \(generated) generated cases, every check, all phases")
    }
}

/// `serve` on its own fresh database, with crawling and delivery off so nothing but the test's own
/// requests changes what the API answers, and an admin API token. Registration does not resolve
/// hosts (AASA_MONITOR_ALLOW_PRIVATE, as for the TLS fleet): the machine may have no DNS, and a
/// generated host name resolving or not is not part of the contract.
final class ContractServer {
    let database: TestDatabase
    let serve: ServeProcess
    let port: Int
    let token: String

    init(arguments: [String] = []) throws {
        database = try TestPostgres.createDatabase()
        let created = try BuiltCommand.run(["token", "create", "contract", "--database-url", database.url])
        guard created.status == 0 else { throw ServeProcess.Failure(description: "token create: \(created.stderr)") }
        token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        serve = try ServeProcess(arguments: ["--no-crawl", "--no-notify"] + arguments, environment: ["DATABASE_URL": database.url, "AASA_MONITOR_ALLOW_PRIVATE": "1"])
        port = try serve.waitForPort()
    }

    deinit {
        _ = try? serve.terminate()
        database.drop()
    }

    var origin: String { "http://127.0.0.1:\(port)" }

    /// One API request with the token, through curl (a real client on a real socket).
    func api(_ method: String, _ path: String, json: String? = nil) throws -> (status: Int, body: String) {
        var arguments = ["-sS", "-X", method, "-H", "Authorization: Bearer \(token)", "-o", "-", "-w", "\n%{http_code}"]
        if let json { arguments += ["-H", "Content-Type: application/json", "--data-binary", json] }
        let curl = try ExternalTool.run(ExternalTool.path("curl", hint: "Debian's curl package"), arguments + [origin + path])
        let lines = curl.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        guard let status = lines.last.flatMap({ Int($0) }) else { throw ServeProcess.Failure(description: "curl: \(curl.output)") }
        return (status, lines.dropLast().joined(separator: "\n"))
    }
}

/// A YAML double-quoted scalar is a JSON string literal (YAML 1.2 is a superset of JSON).
enum JSONStringLiteralForYAML {
    static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
