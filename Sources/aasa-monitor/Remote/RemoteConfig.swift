import ConfigFile
import Foundation
import Registry

/// `export --server` and `apply --server`: the config file through `/api/v1/config`. The server
/// reads and applies it with the code a local `apply` runs and answers the plan (or every problem
/// with its line), which is printed here with the local command's own output.
enum RemoteConfig {
    static func export(_ client: APIClient) throws(RemoteError) -> String {
        struct Body: Decodable { let yaml: String }
        return try client.decode(Body.self, from: try client.send("GET", "/config"), expecting: 200).yaml
    }

    /// The server's plan, or its refusal of the file.
    enum Outcome {
        case plan(ConfigPlan)
        case refused(ConfigRefusal)
    }

    struct Request: Encodable {
        struct Variable: Encodable { let name: String, value: String }
        let yaml: String, environment: [Variable], prune: Bool
    }

    /// `${NAME}` references are resolved on the server against the variables sent here: the ones the
    /// file names and this process has, so a file reads the environment of whoever applies it, as a
    /// local apply does, and nothing else of it leaves this machine.
    static func apply(_ client: APIClient, text: String, environment: [String: String], prune: Bool, dryRun: Bool) throws(RemoteError) -> Outcome {
        let variables = ConfigText.referencedNames(in: text).compactMap { name in environment[name].map { Request.Variable(name: name, value: $0) } }
        let answer = try client.send("POST", dryRun ? "/config/plan" : "/config/apply",
                                     json: APIClient.json(Request(yaml: text, environment: variables, prune: prune)))
        if answer.status == 422, let refusal = try? JSONDecoder().decode(Refusal.self, from: Data(answer.body)) {
            return .refused(ConfigRefusal(refusal.problems.map(\.problem)))
        }
        guard let plan = try client.decode(ConfigPlanJSON.self, from: answer, expecting: 200).plan else {
            throw .unreadableAnswer("the plan names a step this client does not know (is the server a newer version?)")
        }
        return .plan(plan)
    }

    private struct Refusal: Decodable { let problems: [ConfigProblemJSON] }
}
