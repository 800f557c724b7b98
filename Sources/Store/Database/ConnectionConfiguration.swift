/// Where and how to connect: libpq connection keywords, in order (later ones win). Built from
/// `DATABASE_URL` or from the embedded cluster's socket directory.
public struct ConnectionConfiguration: Sendable, CustomStringConvertible {
    /// libpq keyword/value pairs. A `dbname` that is a URL or `key=value` string is expanded by libpq.
    public private(set) var parameters: [(keyword: String, value: String)]

    /// Defaults first, so a URL's own `connect_timeout` etc. override them (libpq: later wins).
    private static let defaults: [(keyword: String, value: String)] = [
        // A down server must turn into a 503 quickly, not hang a worker thread for the OS's TCP timeout.
        ("connect_timeout", "5"),
        ("client_encoding", "UTF8"),
        ("application_name", "aasa-monitor"),
    ]

    /// `postgresql://user:password@host:port/dbname?sslmode=…` or a `key=value` conninfo string.
    public init(url: String) {
        parameters = Self.defaults + [("dbname", url)]
    }

    /// A server listening on a Unix socket in `socketDirectory` (the socket file is `.s.PGSQL.<port>`).
    public init(socketDirectory: String, port: Int = 5432, user: String, database: String) {
        parameters = Self.defaults + [
            ("host", socketDirectory), ("port", String(port)), ("user", user), ("dbname", database),
        ]
    }

    /// The same server, another database (libpq treats every `dbname` after the first as a plain name).
    public func database(_ name: String) -> ConnectionConfiguration {
        var copy = self
        copy.parameters.append(("dbname", name))
        return copy
    }

    /// The same server and database, identified as `name` in pg_stat_activity.
    public func applicationName(_ name: String) -> ConnectionConfiguration {
        var copy = self
        copy.parameters.append(("application_name", name))
        return copy
    }

    /// A `postgresql://` URL for a socket configuration, e.g. to hand to a child process as DATABASE_URL.
    public static func url(socketDirectory: String, port: Int = 5432, user: String, database: String) -> String {
        "postgresql:///\(percentEncoded(database))?host=\(percentEncoded(socketDirectory))&port=\(port)&user=\(percentEncoded(user))"
    }

    /// Safe to log: passwords are replaced, whether given as a keyword or inside a URL.
    public var description: String {
        parameters.map { pair in
            if pair.keyword == "password" { return "password=***" }
            return "\(pair.keyword)=\(Self.redactingPassword(in: pair.value))"
        }.joined(separator: " ")
    }

    private static func redactingPassword(in value: String) -> String {
        // postgresql://user:secret@host → postgresql://user:***@host
        guard let scheme = value.range(of: "://"), let at = value[scheme.upperBound...].firstIndex(of: "@") else {
            return value
        }
        let userInfo = value[scheme.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return value }
        return String(value[..<colon]) + ":***" + String(value[at...])
    }

    private static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return encoded
    }
}
