/// `import --server`: `POST /api/v1/import`, which runs the registry's `importList` on the server.
enum RemoteImport {
    struct Request: Encodable { let list: String, platforms: String }
    struct Refused: Decodable { let message: String }
    struct Report: Decodable { let added: [String], skipped: [String], refused: [Refused] }

    static func run(_ client: APIClient, list: String, platforms: String) throws(RemoteError) -> Report {
        let answer = try client.send("POST", "/import", json: APIClient.json(Request(list: list, platforms: platforms)))
        return try client.decode(Report.self, from: answer, expecting: 200)
    }
}
