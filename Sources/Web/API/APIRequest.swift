import Foundation

/// What every API operation checks before its handler acts, against the schemas the OpenAPI
/// document publishes: the query parameters (each at most once, of its documented form) and a JSON
/// body (415 unless JSON, 413 past 256 KB, 400 unless it parses and fits the schema).
enum APIRequest {
    static let maxBodyBytes = 256 << 10

    /// The body's members, after it fitted `schema` (an object schema). `refusing` names members
    /// that get a message of their own instead of "not a field here"; `explain` says, for a top-level
    /// string that does not fit, what is wrong in words (the host's "remove the port …").
    static func body(_ c: RequestContext, _ schema: APISchema, maxBytes: Int = maxBodyBytes, refusing: [String: String] = [:],
                     explain: [String: @Sendable (String) -> String?] = [:]) throws -> [String: APIJSON] {
        guard let type = c.request.header("content-type"), isJSON(type) else {
            throw WebError.unsupportedMediaType("Send the body as JSON, with Content-Type: application/json.")
        }
        guard c.request.body.count <= maxBytes else { throw WebError.payloadTooLarge("The body is larger than \(maxBytes >> 10) KB.") }
        guard let value = try? JSONDecoder().decode(APIJSON.self, from: Data(c.request.body)) else {
            throw WebError.badRequest("The body is not JSON; send an object such as {\"host\": \"example.com\"}.", field: "body")
        }
        if case .object(let members) = value, let (name, message) = refusing.first(where: { members[$0.key] != nil }) {
            throw WebError.badRequest(message, field: name)
        }
        if let refusal = schema.violation(of: value, at: "") {
            if case .object(let members) = value, case .string(let text)? = members[refusal.field],
               let words = explain[refusal.field]?(text) {
                throw WebError.badRequest(words, field: refusal.field)
            }
            throw WebError.badRequest(refusal.message, field: refusal.field)
        }
        guard case .object(let members) = value else { throw WebError.badRequest("The body must be a JSON object.", field: "body") }
        return members
    }

    /// `application/json`, with or without parameters (`; charset=utf-8`), in any case.
    static func isJSON(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return type == "application/json"
    }

    /// The query, held to the parameters the operation documents. A parameter given twice is refused:
    /// picking one of two values silently would run a different request than the client meant.
    /// Parameters the operation does not document are ignored, as OpenAPI allows.
    static func query(_ c: RequestContext, _ parameters: [(name: String, schema: APISchema)]) throws -> FormData {
        let form: FormData
        do {
            form = try FormData.decode(Array(c.request.query.utf8), limits: .query)
        } catch {
            throw WebError.badRequest("The query string cannot be read: \(error).", field: "query")
        }
        var seen = Set<String>()
        for (name, _) in form.fields where !seen.insert(name).inserted {
            throw WebError.badRequest("The query parameter \(name) is given more than once; give it once.", field: name)
        }
        for (name, schema) in parameters {
            if let value = form[name], let refusal = schema.violation(ofQueryValue: value, at: name) {
                throw WebError.badRequest(refusal.message, field: refusal.field)
            }
        }
        return form
    }
}
