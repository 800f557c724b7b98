import Glibc
import HTTP

// The raw server for Benchmarks/http-bench.sh: GET /healthz answers "ok" inline, /slow answers
// after SLOW_MS on the worker pool, and files under PUBLIC_DIR (default Public/) are served
// statically. Env: PORT (default 8090), HOST, PUBLIC_DIR, ACCESS_LOG=off to disable the log.
let environment = Environment.variables
var configuration = HTTPServerConfiguration(host: environment["HOST"] ?? "127.0.0.1",
                                            port: Int(environment["PORT"] ?? "") ?? 8090)
configuration.publicDirectory = environment["PUBLIC_DIR"] ?? "Public"
if environment["ACCESS_LOG"] == "off" { configuration.accessLog = .disabled }
let slowMilliseconds = Int(environment["SLOW_MS"] ?? "") ?? 200

// A fixed answer is built once; each request only shares its storage.
let healthy = HTTPResponse.text("ok")
let server = HTTPServer(configuration: configuration) { request in
    switch request.path {
    case "/healthz":
        return .respond(healthy)
    case "/slow":
        return .offload { _ in
            usleep(UInt32(slowMilliseconds * 1000))
            return .text("slow ok")
        }
    default:
        return .respond(.status(.notFound))
    }
}
do {
    try server.start()
    try server.shutdownOnSignals()
    let banner = "listening on http://\(configuration.host):\(server.port)\n"
    _ = banner.withCString { write(1, $0, strlen($0)) }
    server.wait()
} catch {
    let message = "HTTPBenchServer: \(error)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

/// The process environment, without pulling Foundation into the benchmark binary.
enum Environment {
    static var variables: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            pointer += 1
        }
        return result
    }
}
