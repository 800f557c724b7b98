/// One `HOST:PORT:CONNECT_HOST:CONNECT_PORT` rule with curl's meaning (`--connect-to`): requests for
/// HOST:PORT go to CONNECT_HOST:CONNECT_PORT instead, while the URL's host still names the TLS
/// server (SNI, certificate check) and the `Host` header. An empty HOST or PORT matches any; an
/// empty CONNECT_HOST or CONNECT_PORT keeps the original. Used by tests and staging to send fleet
/// names to a loopback port.
public struct ConnectToRule: Hashable, Sendable, CustomStringConvertible {
    public var host: String?
    public var port: Int?
    public var connectHost: String?
    public var connectPort: Int?

    public init(host: String?, port: Int?, connectHost: String?, connectPort: Int?) {
        self.host = host
        self.port = port
        self.connectHost = connectHost
        self.connectPort = connectPort
    }

    /// Parses one rule; IPv6 hosts go in brackets (`::[::1]:8443`).
    public init(parsing text: String) throws(ConnectToError) {
        var fields: [String] = []
        var current = ""
        var inBrackets = false
        for ch in text {
            switch ch {
            case "[": inBrackets = true; current.append(ch)
            case "]": inBrackets = false; current.append(ch)
            case ":" where !inBrackets: fields.append(current); current = ""
            default: current.append(ch)
            }
        }
        fields.append(current)
        guard fields.count == 4 else {
            throw ConnectToError(text: text, reason: "expected HOST:PORT:CONNECT_HOST:CONNECT_PORT")
        }
        func port(_ s: String) throws(ConnectToError) -> Int? {
            if s.isEmpty { return nil }
            guard let p = Int(s), (1...65535).contains(p) else { throw ConnectToError(text: text, reason: "\"\(s)\" is not a port") }
            return p
        }
        func host(_ s: String) -> String? {
            guard !s.isEmpty else { return nil }
            if s.hasPrefix("["), s.hasSuffix("]") { return String(s.dropFirst().dropLast()) }
            return s.lowercased()
        }
        self.host = host(fields[0])
        self.port = try port(fields[1])
        self.connectHost = host(fields[2])
        self.connectPort = try port(fields[3])
    }

    /// Parses a comma-separated list (the environment variable's form).
    public static func parseList(_ text: String) throws(ConnectToError) -> [ConnectToRule] {
        var rules: [ConnectToRule] = []
        for part in text.split(separator: ",") where !part.trimmingSpaces.isEmpty {
            rules.append(try ConnectToRule(parsing: part.trimmingSpaces))
        }
        return rules
    }

    func matches(host: String, port: Int) -> Bool {
        (self.host == nil || self.host == host) && (self.port == nil || self.port == port)
    }

    public var description: String {
        func h(_ s: String?) -> String { guard let s else { return "" }; return s.contains(":") ? "[\(s)]" : s }
        return "\(h(host)):\(port.map(String.init) ?? ""):\(h(connectHost)):\(connectPort.map(String.init) ?? "")"
    }
}

public struct ConnectToError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "bad connect-to rule \"\(text)\": \(reason)" }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
