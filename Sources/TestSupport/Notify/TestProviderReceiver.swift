import Foundation

/// A real HTTP server that answers like the on-call and chat providers do (PagerDuty, Opsgenie,
/// Teams, Discord, Google Chat, Mattermost, Telegram, ntfy, and a plain JSON receiver), each under its
/// own path prefix (`url(for:)`). It checks the fields each provider's documentation requires and
/// refuses a request without them the provider's way (status and error body), records every request,
/// and plays a scenario the test chooses: accept, refuse, rate-limit once with Retry-After, or fail
/// once with a 503.
public final class TestProviderReceiver: Sendable {
    public enum Scenario: String, Sendable {
        /// Every valid request is accepted.
        case accept
        /// Every request is refused with the provider's 4xx and error text (a revoked key, an unknown chat).
        case refuse
        /// The first request gets 429 with `Retry-After` (and the body's retry_after where the provider
        /// sends one); the rest are accepted.
        case rateLimitOnce = "rate-limit-once"
        /// The first request gets 503; the rest are accepted.
        case failOnce = "fail-once"
    }

    public typealias Request = TestWebhookReceiver.Request
    private let server: ScriptServer

    public init(scenario: Scenario = .accept, retryAfterSeconds: Int = 2) throws {
        server = try ScriptServer(name: "provider-receiver", source: Self.python)
        try FileManager.default.createDirectory(at: server.directory.appendingPathComponent("records"), withIntermediateDirectories: true)
        try set(scenario)
        try Data(String(retryAfterSeconds).utf8).write(to: server.directory.appendingPathComponent("retry_after"))
        try server.start()
    }

    public func set(_ scenario: Scenario) throws {
        try Data(scenario.rawValue.utf8).write(to: server.directory.appendingPathComponent("scenario"))
    }

    /// The base URL to give a channel of this provider path ("pagerduty", "opsgenie", "teams", "discord",
    /// "google-chat", "mattermost", "telegram", "ntfy", "custom"). ntfy's is a topic URL.
    public func url(for provider: String) -> String {
        let base = "http://127.0.0.1:\(server.port)/\(provider)"
        switch provider {
        case "ntfy": return base + "/alerts-topic"
        case "teams": return base + "/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=secret"
        case "discord": return base + "/api/webhooks/1/token"
        case "google-chat": return base + "/v1/spaces/AAA/messages?key=k&token=t"
        case "mattermost", "custom": return base + "/hooks/abc"
        default: return base
        }
    }

    /// Every request received so far, in arrival order.
    public func requests() -> [Request] { TestWebhookReceiver.records(in: server.directory) }

    static let python = recordingHTTPServerPython + #"""

import json, uuid

lock = threading.Lock()
seen = {"count": 0}

def need(cond, why, missing):
    if not cond:
        missing.append(why)

# Each provider: (check the request → list of problems, success answer, refusal answer, rate-limit body).
def pagerduty(path, headers, body):
    problems = []
    need(isinstance(body, dict), "body must be a JSON object", problems)
    if problems: return problems
    need(len(body.get("routing_key", "")) == 32, "Length of 'routing_key' is incorrect (should be 32 characters)", problems)
    if path.endswith("/v2/change/enqueue"):
        p = body.get("payload") or {}
        need(p.get("summary") and p.get("source"), "'payload.summary' and 'payload.source' are required", problems)
        return problems
    need(path.endswith("/v2/enqueue"), "unknown path", problems)
    action = body.get("event_action")
    need(action in ("trigger", "acknowledge", "resolve"), "'event_action' is invalid", problems)
    if action == "trigger":
        p = body.get("payload") or {}
        need(isinstance(p.get("summary"), str) and 0 < len(p["summary"]) <= 1024, "'payload.summary' is missing or too long", problems)
        need(p.get("source"), "'payload.source' is missing", problems)
        need(p.get("severity") in ("critical", "error", "warning", "info"), "'payload.severity' is invalid", problems)
    else:
        need(body.get("dedup_key"), "'dedup_key' is required for " + str(action), problems)
    return problems

def pagerduty_answer(ok, problems, body):
    if ok:
        return 202, {"status": "success", "message": "Event processed", "dedup_key": (body or {}).get("dedup_key") or uuid.uuid4().hex}
    return 400, {"status": "invalid event", "message": "Event object is invalid", "errors": problems or ["Invalid Routing Key"]}

def opsgenie(path, headers, body):
    problems = []
    need(headers.get("authorization", "").startswith("GenieKey ") and len(headers["authorization"]) > 9, "Key format is not valid!", problems)
    if "/close" in path:
        need(path.split("?")[0].startswith("/opsgenie/v2/alerts/") and "identifierType=alias" in path, "unknown identifier", problems)
        return problems
    need(path == "/opsgenie/v2/alerts", "unknown path", problems)
    need(isinstance(body, dict) and isinstance(body.get("message"), str) and 0 < len(body["message"]) <= 130,
         "Message can not be empty or longer than 130 characters.", problems)
    need(isinstance(body, dict) and len(body.get("alias", "")) <= 512, "Alias is longer than 512 characters.", problems)
    need(isinstance(body, dict) and body.get("priority", "P3") in ("P1", "P2", "P3", "P4", "P5"), "Priority is invalid.", problems)
    return problems

def opsgenie_answer(ok, problems, body):
    if ok:
        return 202, {"result": "Request will be processed", "took": 0.107, "requestId": str(uuid.uuid4())}
    return 422, {"message": "; ".join(problems) or "Key format is not valid!", "took": 0.001, "requestId": str(uuid.uuid4())}

def teams(path, headers, body):
    problems = []
    need(isinstance(body, dict) and body.get("type") == "message", "type must be message", problems)
    attachments = body.get("attachments") if isinstance(body, dict) else None
    need(isinstance(attachments, list) and len(attachments) >= 1, "attachments are required", problems)
    if problems: return problems
    a = attachments[0]
    need(a.get("contentType") == "application/vnd.microsoft.card.adaptive", "contentType must be an Adaptive Card", problems)
    need("contentUrl" in a, "contentUrl is expected", problems)
    card = a.get("content") or {}
    need(card.get("type") == "AdaptiveCard" and card.get("version") and isinstance(card.get("body"), list), "content is not an Adaptive Card", problems)
    return problems

def teams_answer(ok, problems, body):
    if ok:
        return 202, None
    return 400, {"error": {"code": "InvalidRequestContent", "message": "; ".join(problems) or "The workflow's trigger is disabled."}}

def discord(path, headers, body):
    problems = []
    need(isinstance(body, dict) and (body.get("content") or body.get("embeds")), "Cannot send an empty message", problems)
    if problems: return problems
    need(len(body.get("content", "")) <= 2000, "content: Must be 2000 or fewer in length.", problems)
    for e in body.get("embeds", []):
        need(len(e.get("title", "")) <= 256 and len(e.get("description", "")) <= 4096 and len(e.get("fields", [])) <= 25,
             "embeds: Must be within the embed limits.", problems)
    return problems

def discord_answer(ok, problems, body):
    if ok:
        return 204, None
    if not problems:
        return 404, {"message": "Unknown Webhook", "code": 10015}
    return 400, {"message": "; ".join(problems), "code": 50006}

def google_chat(path, headers, body):
    problems = []
    need("key=" in path and "token=" in path, "Request is missing required authentication credential.", problems)
    need(isinstance(body, dict) and isinstance(body.get("text"), str) and 0 < len(body["text"]) <= 4096, "Message cannot be empty.", problems)
    return problems

def google_chat_answer(ok, problems, body):
    if ok:
        return 200, {"name": "spaces/AAA/messages/1", "text": body.get("text"), "thread": {"name": "spaces/AAA/threads/1"}}
    return 400, {"error": {"code": 400, "message": "; ".join(problems) or "Invalid JSON payload received.", "status": "INVALID_ARGUMENT"}}

def mattermost(path, headers, body):
    problems = []
    need(isinstance(body, dict) and (body.get("text") or body.get("attachments")), "No text specified.", problems)
    return problems

def mattermost_answer(ok, problems, body):
    if ok:
        return 200, b"ok"
    return 400, {"id": "web.incoming_webhook.text.app_error", "message": "; ".join(problems) or "Invalid webhook.", "status_code": 400}

def telegram(path, headers, body):
    problems = []
    parts = path.split("/")
    need(len(parts) == 4 and parts[2].startswith("bot") and ":" in parts[2] and parts[3] == "sendMessage", "Not Found", problems)
    need(isinstance(body, dict) and body.get("chat_id"), "Bad Request: chat_id is empty", problems)
    need(isinstance(body, dict) and isinstance(body.get("text"), str) and 0 < len(body["text"]) <= 4096, "Bad Request: message text is empty", problems)
    need(isinstance(body, dict) and body.get("parse_mode", "HTML") in ("HTML", "MarkdownV2", "Markdown"), "Bad Request: unsupported parse_mode", problems)
    return problems

def telegram_answer(ok, problems, body):
    if ok:
        return 200, {"ok": True, "result": {"message_id": 1, "chat": {"id": body.get("chat_id")}, "text": body.get("text")}}
    return 400, {"ok": False, "error_code": 400, "description": "; ".join(problems) or "Bad Request: chat not found"}

def ntfy(path, headers, body):
    problems = []
    need(path == "/ntfy/", "publishing JSON goes to the server's root", problems)
    need(isinstance(body, dict) and body.get("topic"), "topic missing", problems)
    need(isinstance(body, dict) and body.get("priority", 3) in (1, 2, 3, 4, 5), "invalid priority", problems)
    return problems

def ntfy_answer(ok, problems, body):
    if ok:
        return 200, {"id": uuid.uuid4().hex[:12], "time": int(time.time()), "event": "message", "topic": body.get("topic"), "message": body.get("message")}
    return 403, {"code": 40301, "http": 403, "error": "forbidden" if not problems else "; ".join(problems), "link": "https://ntfy.sh/docs/publish/#authentication"}

def custom(path, headers, body):
    return [] if isinstance(body, (dict, list)) else ["body must be JSON"]

def custom_answer(ok, problems, body):
    return (200, {"accepted": True}) if ok else (400, {"message": "; ".join(problems) or "the receiver refused the message"})

providers = {
    "pagerduty": (pagerduty, pagerduty_answer, {"status": "throttle event", "message": "Requests for this service are arriving too quickly."}),
    "opsgenie": (opsgenie, opsgenie_answer, {"message": "You are making too many requests! To avoid errors, we recommend you limit requests.", "took": 0.0}),
    "teams": (teams, teams_answer, {"error": {"code": "WorkflowTriggerIsThrottled", "message": "Rate limit is exceeded."}}),
    "discord": (discord, discord_answer, None),
    "google-chat": (google_chat, google_chat_answer, {"error": {"code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED"}}),
    "mattermost": (mattermost, mattermost_answer, {"message": "Too many requests", "status_code": 429}),
    "telegram": (telegram, telegram_answer, None),
    "ntfy": (ntfy, ntfy_answer, {"code": 42901, "http": 429, "error": "limit reached: too many requests"}),
    "custom": (custom, custom_answer, {"message": "slow down"}),
}

class Handler(RecordingHandler):
    def do_POST(self):
        received, headers, raw = self.read_request()
        provider = self.path.split("/")[1].split("?")[0]
        check, answer, limited = providers.get(provider, (custom, custom_answer, None))
        try:
            body = json.loads(raw.decode("utf-8"))
        except ValueError:
            body = None
        scenario = setting("scenario", "accept")
        retry_after = setting("retry_after", 2)
        with lock:
            seen["count"] += 1
            first = seen["count"] == 1
        extra = []
        problems = check(self.path, headers, body) if body is not None else ["the body is not JSON"]
        if headers.get("content-type", "").split(";")[0] != "application/json":
            problems.append("content-type must be application/json")
        if scenario == "rate-limit-once" and first:
            status = 429
            extra.append(("retry-after", str(retry_after)))
            if provider == "discord":
                reply = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
            elif provider == "telegram":
                reply = {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after %d" % retry_after,
                         "parameters": {"retry_after": retry_after}}
            else:
                reply = limited
        elif scenario == "fail-once" and first:
            status, reply = 503, {"message": "Service Unavailable"}
        else:
            ok = not problems and scenario != "refuse"
            status, reply = answer(ok, problems, body if isinstance(body, dict) else {})
        self.record(received, headers, raw, status)
        if reply is None:
            self.answer(status, b"", extra=extra)
        elif isinstance(reply, bytes):
            self.answer(status, reply, "text/plain" if reply else None, extra)
        else:
            self.answer(status, json.dumps(reply).encode("utf-8"), "application/json", extra)

serve(Handler)
"""#
}
