import Registry
import Vocabulary

/// The API's description, served at /api/v1/openapi.json. Request schemas and query parameters are
/// rendered from the same `APISchema` values the server enforces (`DomainAPI`), so the document and
/// the server cannot drift apart; APIContractTests runs Schemathesis (every check, the stateful phase
/// through the links below) against the running server, and openapi-spec-validator over the text.
///
/// Status codes, the same on every operation: 401 without a valid token; 403 for a read-only token
/// on an operation that changes something; 400 when a request does not fit this document (a query
/// parameter given twice included); 413/415 for a body too large / not JSON; 404 for a domain that
/// no id or host names; 409 for a host already registered; 422 when a request fits the document and
/// a rule no schema can state refuses it (IDNA rejects the host, a watched URL on another host).
enum OpenAPIDocument {
    static let json: String = render()

    static func queryParameters(_ list: [(name: String, schema: APISchema)]) -> String {
        list.map { "{\"name\": \(APISchema.quoted($0.name)), \"in\": \"query\", \"required\": false, \"schema\": \($0.schema.json)}" }
            .joined(separator: ", ")
    }

    /// Responses every operation with a token can give, plus the operation's own.
    static func responses(_ own: String, refs: [Int]) -> String {
        let names = [400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 409: "Conflict",
                     413: "PayloadTooLarge", 415: "UnsupportedMediaType", 422: "Unprocessable"]
        let shared = ([401] + refs).sorted().compactMap { code in names[code].map { "\"\(code)\": {\"$ref\": \"#/components/responses/\($0)\"}" } }
        return "{" + ([own] + shared).joined(separator: ", ") + "}"
    }

    static func jsonBody(_ schema: String) -> String {
        "{\"required\": true, \"content\": {\"application/json\": {\"schema\": \(schema)}}}"
    }

    static func jsonResponse(_ status: Int, _ description: String, _ schema: String, links: String? = nil) -> String {
        "\"\(status)\": {\"description\": \(APISchema.quoted(description)), \"content\": {\"application/json\": {\"schema\": \(schema)}}"
            + (links.map { ", \"links\": \($0)" } ?? "") + "}"
    }

    /// Links for the stateful phase: a registered domain's id feeds every operation on a domain. Only
    /// the id: a second link by host would name the same domain by two URLs, and a client following
    /// links (Schemathesis) would read a GET by host after a DELETE by id as "created resource not found".
    static let domainLinks: String = {
        let byID = ["getDomain", "changeDomain", "requestCheck", "listChecks", "latestFindings", "diffVersions", "deleteDomain"]
        let links = byID.map { "\"\($0)\": {\"operationId\": \"\($0)\", \"parameters\": {\"domain\": \"$response.body#/id\"}}" }
        return "{" + links.joined(separator: ", ") + "}"
    }()

    /// A new channel's id feeds the operations on a channel.
    static let channelLinks: String = {
        let links = ["getChannel", "testChannel", "deleteChannel"].map {
            "\"\($0)\": {\"operationId\": \"\($0)\", \"parameters\": {\"id\": \"$response.body#/channel/id\"}}"
        }
        return "{" + links.joined(separator: ", ") + "}"
    }()

    static func render() -> String {
        let domainParameter = """
            {"name": "domain", "in": "path", "required": true, "description": "The domain's id, or its host (Unicode or Punycode)",
             "schema": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "maxLength": 253, "pattern": \(APISchema.quoted(APIPatterns.host))}]}}
            """
        let errorRef = ##"{"$ref": "#/components/schemas/Error"}"##
        func errorResponse(_ description: String) -> String {
            "{\"description\": \(APISchema.quoted(description)), \"content\": {\"application/json\": {\"schema\": \(errorRef)}}}"
        }
        let state = APISchema.stringEnum(DomainState.allCases.map(\.rawValue)).json
        let verdict = APISchema.stringEnum(["pass", "warn", "fail"]).json
        let dateTime = #"{"type": "string", "format": "date-time"}"#
        let platforms = APISchema.stringEnum(WatchedPlatforms.allCases.map(\.rawValue)).json
        let reasonPlatform = APISchema.stringEnum(Platform.allCases.map(\.rawValue)).json
        let finding = #"""
            {"type": "object", "required": ["code", "severity", "message"], "properties": {"code": {"type": "string"}, "severity": {"type": "string"},
              "location": {"type": "string"}, "message": {"type": "string"}, "hint": {"type": "string"}, "affects": {"type": "string"}}}
            """#
        // Android's side of a domain by its latest check (absent: not watched, not counted or never checked).
        let android = #"""
            {"type": "object", "description": "assetlinks.json by the latest check, with Google's Digital Asset Links verdict",
             "required": ["state", "findings"], "properties": {
              "state": \#(state), "last_checked_at": \#(dateTime), "version": {"type": "string", "description": "SHA-256 of the file the origin served"},
              "findings": {"type": "array", "items": \#(finding)},
              "google": {"type": "object", "required": ["error_codes", "statement_count", "not_linked", "stale"], "properties": {
                "error_codes": {"type": "array", "items": {"type": "string"}}, "max_age_seconds": {"type": "number"},
                "debug_string": {"type": "string"}, "statement_count": {"type": "integer"},
                "not_linked": {"type": "array", "items": {"type": "string"}}, "stale": {"type": "boolean"},
                "unavailable": {"type": "string"}}}}}
            """#
        let domain = #"""
            {"type": "object", "required": ["id", "host", "display_name", "wildcard", "state", "interval_minutes", "badge", "platforms", "next_check_at"], "properties": {
              "id": {"type": "integer"}, "host": {"type": "string"}, "display_name": {"type": "string"}, "wildcard": {"type": "boolean"},
              "state": \#(state), "reason": {"type": "string", "description": "Why, in one line: an unmet expectation, else the worst finding; absent when all is well"},
              "reason_platform": \#(reasonPlatform),
              "interval_minutes": {"type": "integer"}, "badge": {"type": "boolean"},
              "platforms": \#(platforms),
              "apple_state": \#(state), "android_state": \#(state),
              "open_alerts": {"type": "integer", "description": "Open alerts of the domain, as the list counts them; absent from the export"},
              "last_checked_at": \#(dateTime), "last_changed_at": \#(dateTime), "next_check_at": \#(dateTime),
              "paused": {"type": "boolean", "description": "Not checked until resumed (PATCH with paused false): no alert opens or resolves meanwhile"},
              "app_ids": {"type": "array", "items": {"type": "object", "required": ["service", "app_id"], "properties": {"service": {"type": "string"}, "app_id": {"type": "string"}}}},
              "watched_urls": {"type": "array", "items": {"type": "object", "required": ["url", "expect"], "properties": {"url": {"type": "string"}, "expect": {"type": "string"},
                "android": {"type": "string", "description": "What it must do on Android when stated apart: a package name, or nothing; absent: derived from expect"}}}},
              "android_apps": {"type": "array", "description": "The Android apps the domain itself must verify (an app's own are under /apps)", "items": {"type": "object",
                "required": ["package", "fingerprints"], "properties": {"package": {"type": "string"},
                "fingerprints": {"type": "array", "items": {"type": "string", "description": "Upper-case, colon-separated"}},
                "upload_keys": {"type": "array", "items": {"type": "string"}, "description": "Which of the fingerprints are upload keys"}}}},
              "android": \#(android)}}
            """#
        let domainList = #"""
            {"type": "object", "required": ["domains", "total", "page", "per_page"], "properties": {
              "total": {"type": "integer"}, "total_is_lower_bound": {"type": "boolean", "description": "Present (true) when at least total match: a search matching 5,000 domains or more is counted only as far as the pages so far (a page that is not full gives the count)"}, "page": {"type": "integer"}, "per_page": {"type": "integer"},
              "next_after": {"type": "integer", "description": "Pass as after for the next page (keyset: as fast at page 10,000 as at page 1); absent on the last page, or when the order is not the state or host order (either direction) without q"},
              "domains": {"type": "array", "items": {"type": "object", "required": ["id", "host", "display_name", "state", "open_alerts"], "properties": {
                "id": {"type": "integer"}, "host": {"type": "string"}, "display_name": {"type": "string"}, "state": \#(state),
                "reason": {"type": "string"}, "reason_platform": \#(reasonPlatform), "last_checked_at": \#(dateTime), "last_changed_at": \#(dateTime), "open_alerts": {"type": "integer"},
                "platforms": \#(platforms), "apple_state": \#(state), "android_state": \#(state), "paused": {"type": "boolean"}}}}}}
            """#
        let checks = #"""
            {"type": "object", "required": ["checks"], "properties": {"checks": {"type": "array", "items": {"type": "object",
              "required": ["id", "started_at", "changed", "findings"], "properties": {
              "id": {"type": "integer"}, "started_at": \#(dateTime), "finished_at": \#(dateTime), "verdict": \#(verdict),
              "origin_version": {"type": "string"}, "cdn_version": {"type": "string"}, "latency_ms": {"type": "integer"}, "changed": {"type": "boolean"},
              "findings": {"type": "array", "items": \#(finding)},
              "unchanged_after": {"type": "object", "required": ["count", "first_at", "last_at"], "properties": {
                "count": {"type": "integer"}, "first_at": \#(dateTime), "last_at": \#(dateTime)}},
              "android_version": {"type": "string"}, "android_events": {"type": "array", "items": {"type": "string"}}}}}}}
            """#
        let findings = #"{"type": "object", "required": ["findings"], "properties": {"check_id": {"type": "integer"}, "findings": {"type": "array", "items": \#(finding)}}}"#
        let diff = #"""
            {"type": "object", "required": ["from", "to", "behaviourally_equal", "changes", "watched_urls", "text"], "properties": {
              "from": {"type": "string"}, "to": {"type": "string"}, "behaviourally_equal": {"type": "boolean"},
              "changes": {"type": "array", "items": {"type": "string"}}, "text": {"type": "array", "items": {"type": "string"}},
              "watched_urls": {"type": "array", "items": {"type": "object", "required": ["url", "before", "after"], "properties": {
                "url": {"type": "string"}, "before": {"type": "string"}, "after": {"type": "string"}}}}}}
            """#
        let tested = #"""
            {"type": "object", "required": ["url"], "properties": {"url": {"type": "string"},
              "opens": {"type": "string", "description": "Apple: the app ID that opens the URL (absent: it stays in the browser)"},
              "source": {"type": "string", "description": "Apple: which file answered (absent with apple_error)"},
              "apps": {"type": "array", "items": {"type": "object", "required": ["app_id", "opens", "reason"], "properties": {
                "app_id": {"type": "string"}, "opens": {"type": "boolean"}, "reason": {"type": "string"}, "deciding_rule": {"type": "string"}}}},
              "apple_error": {"type": "string", "description": "Why Apple has no answer while Android has one (no stored or pasted AASA)"},
              "android": {"type": "object", "description": "Android's answer, from the pasted or the domain's stored assetlinks.json (absent: neither)",
                "required": ["source", "apps", "findings"], "properties": {
                "source": {"type": "string"},
                "opens": {"type": "string", "description": "The package that opens the URL on Android 15+ (its dynamic rules decide); absent: the browser"},
                "opens_before_android_15": {"type": "string", "description": "The package that opens it on Android 14 and older (every path of a verified host)"},
                "apps": {"type": "array", "items": {"type": "object",
                  "required": ["package_name", "opens", "reason", "opens_before_android_15", "reason_before_android_15"], "properties": {
                  "package_name": {"type": "string"}, "opens": {"type": "boolean"}, "reason": {"type": "string"}, "deciding_rule": {"type": "string"},
                  "opens_before_android_15": {"type": "boolean"}, "reason_before_android_15": {"type": "string"}}}},
                "findings": {"type": "array", "items": {"type": "string"}}}}}}
            """#
        let accepted = #"""
            {"type": "object", "required": ["id", "check_requested", "status_url"], "properties": {
              "id": {"type": "integer"}, "check_requested": {"type": "boolean", "description": "false for a paused domain, which is not checked until resumed"}, "status_url": {"type": "string"}}}
            """#
        let appCheckAccepted = #"""
            {"type": "object", "required": ["id", "checks_requested", "status_url"], "properties": {
              "id": {"type": "integer"}, "checks_requested": {"type": "integer"}, "status_url": {"type": "string"}}}
            """#
        let domainRef = ##"{"$ref": "#/components/schemas/Domain"}"##
        let appRef = ##"{"$ref": "#/components/schemas/App"}"##
        let app = #"""
            {"type": "object", "required": ["id", "name", "domains"], "properties": {
              "id": {"type": "integer"}, "name": {"type": "string"},
              "apple_app_ids": {"type": "array", "items": {"type": "string"}}, "android_package": {"type": "string"},
              "domains": {"type": "array", "items": {"type": "object", "properties": {"domain_id": {"type": "integer"}, "host": {"type": "string"},
                "cells": {"type": "array", "items": {"type": "object", "properties": {
                  "platform": {"type": "string", "enum": ["apple", "android"]}, "service": {"type": "string"}, "state": \#(state),
                  "reason": {"type": "string"}, "since": \#(dateTime)}}}}}},
              "watched_urls": {"type": "array", "items": {"type": "object"}},
              "domain_count": {"type": "integer", "description": "Every domain the app claims; domains holds one page of them"},
              "next_after": {"type": "integer", "description": "The after of the next page of domains; absent on the last"}}}
            """#
        // The CLI's operations (`--server`): the answers its local commands print from.
        let nullableString = #"{"type": "string", "nullable": true}"#
        let nullableState = #"{"type": "string", "nullable": true, "description": "passing, warnings, failing or never checked; null: not watched, not counted or not checked yet"}"#
        let status = #"""
            {"type": "object", "required": ["domains"], "properties": {"domains": {"type": "array", "items": {"type": "object",
              "required": ["host", "state", "platforms", "apple", "android", "reason", "last_check", "version", "open_alerts", "paused"], "properties": {
              "host": {"type": "string"}, "state": {"type": "string", "description": "passing, warnings, failing, checking or never checked"},
              "platforms": \#(platforms), "apple": \#(nullableState), "android": \#(nullableState), "reason": \#(nullableString),
              "last_check": {"type": "string", "format": "date-time", "nullable": true}, "version": \#(nullableString),
              "open_alerts": {"type": "array", "items": {"type": "string"}},
              "paused": {"type": "boolean", "description": "not checked until resumed; the state is the last check's"}}}}}}
            """#
        let importReport = #"""
            {"type": "object", "required": ["added", "skipped", "refused"], "properties": {
              "added": {"type": "array", "items": {"type": "string"}}, "skipped": {"type": "array", "items": {"type": "string"}, "description": "Already registered"},
              "refused": {"type": "array", "items": {"type": "object", "required": ["line", "text", "reason", "message"], "properties": {
                "line": {"type": "integer"}, "text": {"type": "string"}, "reason": {"type": "string"}, "message": {"type": "string"}}}}}}
            """#
        let checkNowReport = #"""
            {"type": "object", "required": ["requested", "paused", "not_registered", "refused"], "properties": {
              "requested": {"type": "array", "items": {"type": "string"}}, "paused": {"type": "array", "items": {"type": "string"}, "description": "Not checked until resumed"},
              "not_registered": {"type": "array", "items": {"type": "string"}},
              "refused": {"type": "array", "items": {"type": "object", "required": ["input", "reason"], "properties": {
                "input": {"type": "string"}, "reason": {"type": "string"}}}}}}
            """#
        let configPlan = #"""
            {"type": "object", "required": ["applied", "changes", "steps", "kept"], "properties": {
              "applied": {"type": "boolean"},
              "changes": {"type": "object", "required": ["add", "change", "remove"], "properties": {"add": {"type": "integer"}, "change": {"type": "integer"}, "remove": {"type": "integer"}}},
              "steps": {"type": "array", "items": {"type": "object", "required": ["action", "type", "name", "details"], "properties": {
                "action": {"type": "string", "enum": ["add", "change", "remove"]}, "type": {"type": "string"}, "name": {"type": "string"},
                "details": {"type": "array", "items": {"type": "string"}}}}},
              "kept": {"type": "object", "required": ["domains", "apps", "channels"], "properties": {
                "domains": {"type": "array", "items": {"type": "string"}}, "apps": {"type": "array", "items": {"type": "string"}},
                "channels": {"type": "array", "items": {"type": "string"}}}}}}
            """#
        // A body past the HTTP server's 1 MB is refused by the HTTP layer before the API reads it, in
        // text/plain; under it, past the operation's own limit, by the API in JSON. A body these
        // schemas allow can pass 1 MB once its strings are escaped (\u00b3 is 6 bytes for 2), so both are documented.
        let tooLarge = #"""
            "413": {"description": "The body is larger than the server takes (1 MB)", "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}, "text/plain": {"schema": {"type": "string"}}}}
            """#
        let configRefusal = #"""
            {"description": "The file was refused and nothing changed: every problem with its line (0: the file as a whole)", "content": {"application/json": {"schema": {
              "type": "object", "required": ["error", "problems"], "properties": {"error": {"type": "object", "required": ["message", "field"], "properties": {
                "message": {"type": "string"}, "field": {"type": "string", "nullable": true}}},
              "problems": {"type": "array", "items": {"type": "object", "required": ["line", "message"], "properties": {
                "line": {"type": "integer"}, "message": {"type": "string"}}}}}}}}}
            """#
        let idParameter = #"{"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}"#
        // An app by its id or its name (a name of digits only is reached by its id).
        let appParameter = #"""
            {"name": "id", "in": "path", "required": true, "description": "The app's id, or its name",
             "schema": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "minLength": 1, "maxLength": 200}]}}
            """#
        let appOrPlan = #"{"anyOf": [\#(appRef), {"type": "object", "required": ["name", "domains", "dropped"]}]}"#
        return #"""
        {
          "openapi": "3.0.3",
          "info": {"title": "aasa-monitor API", "version": "1.2.0",
                   "description": "Watch Apple's apple-app-site-association and Android's assetlinks.json files of your domains and apps. Authenticate with Authorization: Bearer TOKEN (aasa-monitor token create NAME). Errors are {\"error\": {\"message\": string, \"field\": string|null}}. A domain is addressed by its id or its host, an app by its id or its name. 400: the request does not fit this document (a query parameter given twice included); 422: it fits, and a rule no schema can state refuses it."},
          "servers": [{"url": "/api/v1"}],
          "security": [{"bearer": []}],
          "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
              "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "object", "required": ["message", "field"],
                "properties": {"message": {"type": "string"}, "field": {"type": "string", "nullable": true}}}}},
              "DomainRegistration": \#(DomainAPI.registrationSchema.json),
              "DomainChange": \#(DomainAPI.changeSchema.json),
              "Domain": \#(domain),
              "AppInput": \#(AppAPI.inputSchema.json),
              "ChannelInput": \#(ChannelAPI.inputSchema.json),
              "AlertSettingsInput": \#(AlertSettingsAPI.inputSchema.json),
              "ConfigInput": \#(ConfigAPI.inputSchema.json),
              "App": \#(app)
            },
            "responses": {
              "BadRequest": \#(errorResponse("The request does not fit this document")),
              "Unauthorized": \#(errorResponse("No valid API token")),
              "Forbidden": \#(errorResponse("The token is read-only")),
              "NotFound": \#(errorResponse("No such domain, version or diff")),
              "Conflict": \#(errorResponse("The host is already registered")),
              "PayloadTooLarge": \#(errorResponse("The body is larger than 256 KB")),
              "UnsupportedMediaType": \#(errorResponse("The body is not sent as application/json")),
              "Unprocessable": \#(errorResponse("The request fits this document and is refused by a rule no schema states"))
            }
          },
          "paths": {
            "/domains": {
              "get": {"operationId": "listDomains", "summary": "List domains, worst state first", "description": "Pages by page=N (reads every row before the page: slower the deeper it goes) or, in the state and host orders (either direction) without q, by after=next_after of the page before (keyset: a deep page costs what the first does); in other orders page decides and after is left aside.", "parameters": [\#(queryParameters(DomainAPI.listParameters))],
                "responses": \#(responses(jsonResponse(200, "A page of domains", domainList), refs: [400]))},
              "post": {"operationId": "registerDomain", "summary": "Register a domain; its first check starts at once",
                "requestBody": \#(jsonBody(##"{"$ref": "#/components/schemas/DomainRegistration"}"##)),
                "responses": \#(responses(jsonResponse(201, "Registered", domainRef, links: domainLinks), refs: [400, 403, 409, 413, 415, 422]))}
            },
            "/domains/{domain}": {
              "parameters": [\#(domainParameter)],
              "get": {"operationId": "getDomain", "summary": "Read a domain",
                "responses": \#(responses(jsonResponse(200, "The domain", domainRef), refs: [404]))},
              "patch": {"operationId": "changeDomain", "summary": "Change interval, badge, platforms, app IDs, watched URLs or Android apps, or pause or resume the domain (paused; a resumed domain is due at once); members left out keep their value",
                "requestBody": \#(jsonBody(##"{"$ref": "#/components/schemas/DomainChange"}"##)),
                "responses": \#(responses(jsonResponse(200, "The domain", domainRef), refs: [400, 403, 404, 413, 415, 422]))},
              "delete": {"operationId": "deleteDomain", "summary": "Delete a domain and its history",
                "responses": \#(responses(#""204": {"description": "Deleted"}"#, refs: [403, 404]))}
            },
            "/domains/{domain}/check": {
              "parameters": [\#(domainParameter)],
              "post": {"operationId": "requestCheck", "summary": "Check now",
                "responses": \#(responses(jsonResponse(202, "Requested", accepted), refs: [403, 404]))}
            },
            "/domains/{domain}/checks": {
              "parameters": [\#(domainParameter)],
              "get": {"operationId": "listChecks", "summary": "Recent checks, newest first; each changed check carries unchanged_after (count, first_at, last_at) for the unchanged checks that followed it",
                "parameters": [\#(queryParameters(DomainAPI.checksParameters))],
                "responses": \#(responses(jsonResponse(200, "Checks", checks), refs: [400, 404]))}
            },
            "/domains/{domain}/findings": {
              "parameters": [\#(domainParameter)],
              "get": {"operationId": "latestFindings", "summary": "Findings of the latest check",
                "responses": \#(responses(jsonResponse(200, "Findings", findings), refs: [404]))}
            },
            "/domains/{domain}/diff": {
              "parameters": [\#(domainParameter)],
              "get": {"operationId": "diffVersions", "summary": "Behavioural and text diff between two versions (default: the latest two)",
                "parameters": [\#(queryParameters(DomainAPI.diffParameters))],
                "responses": \#(responses(jsonResponse(200, "The diff", diff), refs: [400, 404]))}
            },
            "/versions/{hash}": {
              "parameters": [{"name": "hash", "in": "path", "required": true, "schema": {"type": "string", "pattern": \#(APISchema.quoted(APIPatterns.sha256))}}],
              "get": {"operationId": "getVersion", "summary": "A stored file, byte for byte",
                "responses": \#(responses(#""200": {"description": "The file", "content": {"text/plain": {"schema": {"type": "string"}}}}"#, refs: [404]))}
            },
            "/test-url": {
              "post": {"operationId": "testURL", "summary": "Which app a URL opens on Apple and on Android (15+ by its dynamic rules, and before), with the deciding rule; give the files as aasa / assetlinks or a registered domain's id as domain_id (left out: the registered domain of the URL's host, or the wildcard registration above it)",
                "requestBody": \#(jsonBody(DomainAPI.testURLSchema.json)),
                "responses": \#(responses(jsonResponse(200, "The outcome", tested), refs: [400, 413, 415, 422]))}
            },
            "/apps": {
              "get": {"operationId": "listApps", "summary": "List apps with their links (domain x platform x service) counted by state, each link judged for the app",
                "responses": \#(responses(#""200": {"description": "The apps", "content": {"application/json": {"schema": {"type": "object", "required": ["apps"], "properties": {"apps": {"type": "array", "items": {"type": "object"}}}}}}}"#, refs: []))},
              "post": {"operationId": "registerApp", "summary": "Register an app and the domains it claims in one transaction (or, with preview, only say what would be registered)",
                "requestBody": \#(jsonBody(##"{"$ref": "#/components/schemas/AppInput"}"##)),
                "responses": \#(responses(#""200": {"description": "The preview", "content": {"application/json": {"schema": {"type": "object"}}}}, "# + jsonResponse(201, "Registered", appRef, links: #"{"getApp": {"operationId": "getApp", "parameters": {"id": "$response.body#/id"}}, "changeApp": {"operationId": "changeApp", "parameters": {"id": "$response.body#/id"}}, "deleteApp": {"operationId": "deleteApp", "parameters": {"id": "$response.body#/id"}}}"#), refs: [400, 403, 409, 413, 415, 422]))}
            },
            "/apps/{id}": {
              "parameters": [\#(appParameter)],
              "get": {"operationId": "getApp", "summary": "An app's matrix: domains x services x platforms with state, since when and the reason, and its watched URLs", "description": "The domains come a page at a time in host order: limit of them (default 50) after the domain after names, the next_after of the page before (keyset: a page is neither repeated nor skipped when the app changes between requests); next_after is absent on the last page.",
                "parameters": [\#(queryParameters(AppAPI.readParameters))],
                "responses": \#(responses(jsonResponse(200, "The app", appRef), refs: [400, 404, 422]))},
              "patch": {"operationId": "changeApp", "summary": "Change an app: members left out keep their value; entitlements replace its Apple domains and a manifest its Android hosts unless those are given too; with preview, only say what would change (dropped: the domains it would stop claiming)",
                "requestBody": \#(jsonBody(##"{"$ref": "#/components/schemas/AppInput"}"##)),
                "responses": \#(responses(jsonResponse(200, "The app, or with preview the plan", appOrPlan), refs: [400, 403, 404, 409, 413, 415, 422]))},
              "delete": {"operationId": "deleteApp", "summary": "Delete an app and the app IDs it required of its domains (the domains stay)",
                "responses": \#(responses(#""204": {"description": "Deleted"}"#, refs: [403, 404]))}
            },
            "/apps/{id}/check": {
              "parameters": [\#(appParameter)],
              "post": {"operationId": "requestAppCheck", "summary": "Check now every domain the app claims (ahead of routine checks); checks_requested says how many",
                "responses": \#(responses(jsonResponse(202, "Requested", appCheckAccepted), refs: [403, 404]))}
            },
            "/status": {
              "get": {"operationId": "status", "summary": "Every domain's state, platforms, last check, version and open alerts, as aasa-monitor status --json prints them",
                "responses": \#(responses(jsonResponse(200, "The domains", status), refs: []))}
            },
            "/import": {
              "post": {"operationId": "importDomains", "summary": "Register every domain of an import list (aasa-monitor import): what was added, skipped (already registered) and refused, by line",
                "requestBody": \#(jsonBody(ImportAPI.inputSchema.json)),
                "responses": \#(responses(jsonResponse(200, "The report", importReport) + ", " + tooLarge, refs: [400, 403, 415]))}
            },
            "/check-now": {
              "post": {"operationId": "checkHostsNow", "summary": "Check these hosts now (aasa-monitor check-now): which were requested, are paused (not checked until resumed), are not registered or are not host names",
                "requestBody": \#(jsonBody(CheckNowAPI.inputSchema.json)),
                "responses": \#(responses(jsonResponse(202, "Requested", checkNowReport) + ", " + tooLarge, refs: [400, 403, 415]))}
            },
            "/config": {
              "get": {"operationId": "exportConfig", "summary": "The config file aasa-monitor apply reads, from what is monitored (aasa-monitor export --yaml); secrets as ${NAME} references, never values",
                "responses": \#(responses(jsonResponse(200, "The file", #"{"type": "object", "required": ["yaml"], "properties": {"yaml": {"type": "string"}}}"#), refs: []))}
            },
            "/config/plan": {
              "post": {"operationId": "planConfig", "summary": "What applying a config file would change, changing nothing (aasa-monitor apply --dry-run); ${NAME} references are read from environment, never from the server's own",
                "requestBody": \#(jsonBody(##"{"$ref": "#/components/schemas/ConfigInput"}"##)),
                "responses": \#(responses(jsonResponse(200, "The plan", configPlan) + ", \"422\": " + configRefusal + ", " + tooLarge, refs: [400, 415]))}
            },
            "/config/apply": {
              "post": {"operationId": "applyConfig", "summary": "Make what is monitored what a config file declares, in one transaction (aasa-monitor apply); prune removes what the file's lists leave out",
                "requestBody": \#(jsonBody(##"{"$ref": "#/components/schemas/ConfigInput"}"##)),
                "responses": \#(responses(jsonResponse(200, "The plan, applied", configPlan) + ", \"422\": " + configRefusal + ", " + tooLarge, refs: [400, 403, 415]))}
            },
            "/channels": {
              "get": {"operationId": "listChannels", "summary": "List notification channels with their latest delivery (never a credential)",
                "responses": \#(responses(#""200": {"description": "The channels"}"#, refs: []))},
              "post": {"operationId": "addChannel", "summary": "Add a channel: email, webhook, slack, pagerduty, opsgenie, teams, discord, google-chat, mattermost, telegram, ntfy or custom-webhook",
                "requestBody": \#(jsonBody(##"{"$ref": "#/components/schemas/ChannelInput"}"##)),
                "responses": \#(responses(jsonResponse(201, "Added; signing_secret is returned this once for a signed webhook given none; warning (else null) says when the URL is on this machine or a private network while private receivers are refused", "{\"type\": \"object\"}",
                                                       links: channelLinks), refs: [400, 403, 413, 415, 422]))}
            },
            "/channels/{id}": {
              "parameters": [\#(idParameter)],
              "get": {"operationId": "getChannel", "summary": "A channel and its latest delivery", "responses": \#(responses(#""200": {"description": "The channel"}"#, refs: [404]))},
              "delete": {"operationId": "deleteChannel", "summary": "Remove a channel and its delivery log", "responses": \#(responses(#""204": {"description": "Removed"}"#, refs: [403, 404]))}
            },
            "/settings/alerts": {
              "get": {"operationId": "getAlertSettings", "summary": "The alert thresholds and retry interval: an alert opens after failure_threshold failing checks in a row, retry_minutes apart (doubling, never beyond the domain's interval), and resolves after success_threshold passing ones",
                "responses": \#(responses(#""200": {"description": "The settings, with their summary in words"}"#, refs: []))},
              "patch": {"operationId": "changeAlertSettings", "summary": "Change the alert thresholds or retry interval; members left out keep their value",
                "requestBody": \#(jsonBody(##"{"$ref": "#/components/schemas/AlertSettingsInput"}"##)),
                "responses": \#(responses(#""200": {"description": "The settings"}"#, refs: [400, 403, 413, 415, 422]))}
            },
            "/channels/{id}/test": {
              "parameters": [\#(idParameter)],
              "post": {"operationId": "testChannel", "summary": "Send a test notification now; the answer is the provider's (status, body, or why it was refused)",
                "responses": \#(responses(#""200": {"description": "What the provider answered"}"#, refs: [403, 404]))}
            }
          }
        }
        """#
    }
}
