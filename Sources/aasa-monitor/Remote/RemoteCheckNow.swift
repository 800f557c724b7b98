/// `check-now --server`: `POST /api/v1/check-now`, which runs the registry's `requestCheck(hosts:)`.
enum RemoteCheckNow {
    struct Request: Encodable { let hosts: [String] }
    struct Refused: Decodable { let input: String, reason: String }
    struct Report: Decodable { let requested: [String], paused: [String], not_registered: [String], refused: [Refused] }

    static func run(_ client: APIClient, hosts: [String]) throws(RemoteError) -> Report {
        try client.decode(Report.self, from: try client.send("POST", "/check-now", json: APIClient.json(Request(hosts: hosts))), expecting: 202)
    }
}
