/// The API's description, served at /api/v1/openapi.json. A test walks every operation declared
/// here against the running app and checks it answers with a declared status.
enum OpenAPIDocument {
    static let json = #"""
    {
      "openapi": "3.0.3",
      "info": {"title": "aasa-monitor API", "version": "1.0.0",
               "description": "Watch apple-app-site-association files. Authenticate with Authorization: Bearer TOKEN (aasa-monitor token create NAME). Errors are {\"error\": {\"message\": string, \"field\": string|null}}."},
      "servers": [{"url": "/api/v1"}],
      "security": [{"bearer": []}],
      "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "schemas": {
          "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "object", "required": ["message", "field"],
            "properties": {"message": {"type": "string"}, "field": {"type": "string", "nullable": true}}}}},
          "DomainInput": {"type": "object", "properties": {
            "host": {"type": "string", "example": "example.com"},
            "interval_minutes": {"type": "integer", "enum": [5, 15, 60, 360, 1440]},
            "badge": {"type": "boolean"},
            "app_ids": {"type": "array", "items": {"type": "object", "required": ["service", "app_id"], "properties": {
              "service": {"type": "string", "enum": ["applinks", "webcredentials", "appclips", "activitycontinuation"]},
              "app_id": {"type": "string", "example": "ABCDE12345.com.example.app"}}}},
            "watched_urls": {"type": "array", "items": {"type": "object", "required": ["url", "expect"], "properties": {
              "url": {"type": "string"}, "expect": {"type": "string", "description": "An app ID, or browser"}}}}}},
          "Domain": {"type": "object", "required": ["id", "host", "display_name", "state"], "properties": {
            "id": {"type": "integer"}, "host": {"type": "string"}, "display_name": {"type": "string"}, "wildcard": {"type": "boolean"},
            "state": {"type": "string", "enum": ["passing", "warning", "failing", "checking", "never"],
              "description": "The latest check's file verdict made worse by unmet expectations: a missing app ID or a watched URL doing something else is failing"},
            "reason": {"type": "string", "nullable": true, "description": "Why, in one line: an unmet expectation, else the worst finding"},
            "interval_minutes": {"type": "integer"}, "badge": {"type": "boolean"},
            "last_checked_at": {"type": "string", "format": "date-time", "nullable": true},
            "last_changed_at": {"type": "string", "format": "date-time", "nullable": true},
            "next_check_at": {"type": "string", "format": "date-time"}}},
          "AppInput": {"type": "object", "description": "Typed fields and/or the app's own files; the files' app IDs and package fill in what is not typed", "properties": {
            "name": {"type": "string"},
            "apple_app_ids": {"type": "array", "items": {"type": "string", "example": "ABCDE12345.com.example.app"}},
            "android_package": {"type": "string", "example": "com.example.app"},
            "fingerprints": {"type": "array", "items": {"type": "object", "required": ["fingerprint"], "properties": {
              "fingerprint": {"type": "string"}, "role": {"type": "string", "enum": ["app-signing", "upload", "other"]}}}},
            "apple_domains": {"type": "array", "items": {"type": "string", "example": "applinks:example.com"}},
            "android_hosts": {"type": "array", "items": {"type": "string"}},
            "watched_urls": {"type": "array", "items": {"type": "string"}},
            "entitlements": {"type": "string", "description": "An .entitlements property list (XML), or base64: and a binary one"},
            "manifest": {"type": "string", "description": "An AndroidManifest.xml"},
            "preview": {"type": "boolean", "description": "Only answer what would be registered; write nothing"}}},
          "App": {"type": "object", "required": ["id", "name", "domains"], "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"},
            "apple_app_ids": {"type": "array", "items": {"type": "string"}}, "android_package": {"type": "string", "nullable": true},
            "domains": {"type": "array", "items": {"type": "object", "properties": {"domain_id": {"type": "integer"}, "host": {"type": "string"},
              "cells": {"type": "array", "items": {"type": "object", "properties": {
                "platform": {"type": "string", "enum": ["apple", "android"]}, "service": {"type": "string"},
                "state": {"type": "string", "enum": ["passing", "warning", "failing", "checking", "never"]},
                "reason": {"type": "string", "nullable": true}, "since": {"type": "string", "format": "date-time", "nullable": true}}}}}}},
            "watched_urls": {"type": "array", "items": {"type": "object"}}}}
        },
        "responses": {
          "Error": {"description": "Refused", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        },
        "parameters": {
          "id": {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}
        }
      },
      "paths": {
        "/domains": {
          "get": {"summary": "List domains", "parameters": [
              {"name": "state", "in": "query", "schema": {"type": "string"}}, {"name": "q", "in": "query", "schema": {"type": "string"}},
              {"name": "page", "in": "query", "schema": {"type": "integer"}}, {"name": "per_page", "in": "query", "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "A page of domains"}, "401": {"$ref": "#/components/responses/Error"}}},
          "post": {"summary": "Register a domain; its first check starts at once",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DomainInput"}}}},
            "responses": {"201": {"description": "Registered", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Domain"}}}},
                          "400": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Error"},
                          "403": {"$ref": "#/components/responses/Error"}, "409": {"$ref": "#/components/responses/Error"}}}
        },
        "/domains/{id}": {
          "parameters": [{"$ref": "#/components/parameters/id"}],
          "get": {"summary": "Read a domain", "responses": {"200": {"description": "The domain"}, "404": {"$ref": "#/components/responses/Error"}}},
          "patch": {"summary": "Change interval, badge, app IDs or watched URLs",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DomainInput"}}}},
            "responses": {"200": {"description": "The domain"}, "400": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}}},
          "delete": {"summary": "Delete a domain and its history", "responses": {"204": {"description": "Deleted"}, "404": {"$ref": "#/components/responses/Error"}}}
        },
        "/domains/{id}/check": {
          "parameters": [{"$ref": "#/components/parameters/id"}],
          "post": {"summary": "Check now", "responses": {"202": {"description": "Requested"}, "404": {"$ref": "#/components/responses/Error"}}}
        },
        "/domains/{id}/checks": {
          "parameters": [{"$ref": "#/components/parameters/id"}],
          "get": {"summary": "Recent checks, newest first; each changed check carries unchanged_after (count, first_at, last_at) for the unchanged checks that followed it", "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}},
              {"name": "changes", "in": "query", "schema": {"type": "boolean"}}],
            "responses": {"200": {"description": "Checks"}, "404": {"$ref": "#/components/responses/Error"}}}
        },
        "/domains/{id}/findings": {
          "parameters": [{"$ref": "#/components/parameters/id"}],
          "get": {"summary": "Findings of the latest check", "responses": {"200": {"description": "Findings"}, "404": {"$ref": "#/components/responses/Error"}}}
        },
        "/domains/{id}/diff": {
          "parameters": [{"$ref": "#/components/parameters/id"}],
          "get": {"summary": "Behavioural and text diff between two versions (default: the latest two)",
            "parameters": [{"name": "from", "in": "query", "schema": {"type": "string"}}, {"name": "to", "in": "query", "schema": {"type": "string"}}],
            "responses": {"200": {"description": "The diff"}, "400": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}}}
        },
        "/versions/{hash}": {
          "parameters": [{"name": "hash", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}],
          "get": {"summary": "A stored file, byte for byte", "responses": {"200": {"description": "The file", "content": {"text/plain": {}}},
                  "404": {"$ref": "#/components/responses/Error"}}}
        },
        "/test-url": {
          "post": {"summary": "Which app a URL opens, with the deciding rule",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["url"], "properties": {
              "url": {"type": "string"}, "aasa": {"type": "string"}, "domain_id": {"type": "integer"}}}}}},
            "responses": {"200": {"description": "The outcome"}, "400": {"$ref": "#/components/responses/Error"}}}
        },
        "/apps": {
          "get": {"summary": "List apps with their domains counted by state", "responses": {"200": {"description": "The apps"}, "401": {"$ref": "#/components/responses/Error"}}},
          "post": {"summary": "Register an app and the domains it claims in one transaction (or, with preview, only say what would be registered)",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AppInput"}}}},
            "responses": {"200": {"description": "The preview"}, "201": {"description": "Registered", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/App"}}}},
                          "400": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Error"},
                          "403": {"$ref": "#/components/responses/Error"}, "409": {"$ref": "#/components/responses/Error"}}}
        },
        "/apps/{id}": {
          "parameters": [{"$ref": "#/components/parameters/id"}],
          "get": {"summary": "An app's matrix: domains x services x platforms with state, since when and the reason, and its watched URLs",
                  "responses": {"200": {"description": "The app", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/App"}}}}, "404": {"$ref": "#/components/responses/Error"}}},
          "delete": {"summary": "Delete an app and the app IDs it required of its domains (the domains stay)",
                     "responses": {"204": {"description": "Deleted"}, "404": {"$ref": "#/components/responses/Error"}}}
        },
        "/channels": {
          "get": {"summary": "List notification channels with their latest delivery (never a credential)", "responses": {"200": {"description": "The channels"}, "401": {"$ref": "#/components/responses/Error"}}},
          "post": {"summary": "Add a channel: email, webhook, slack, pagerduty, opsgenie, teams, discord, google-chat, mattermost, telegram, ntfy or custom-webhook",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["kind"], "properties": {
              "kind": {"type": "string", "enum": ["email", "webhook", "slack", "pagerduty", "opsgenie", "teams", "discord", "google-chat", "mattermost", "telegram", "ntfy", "custom-webhook"]},
              "name": {"type": "string"}, "target": {"type": "string", "description": "The address or URL; empty for pagerduty, opsgenie and telegram means the provider's API"},
              "credential": {"type": "string", "description": "Routing key, API key, bot token or access token; stored, never returned"},
              "chat_id": {"type": "string", "description": "Telegram"}, "template": {"type": "string", "description": "custom-webhook: a Mustache template of the JSON body"},
              "min_severity": {"type": "string", "enum": ["critical", "warning", "info"]}, "domain_ids": {"type": "array", "items": {"type": "integer"}}}}}}},
            "responses": {"201": {"description": "Added; signing_secret is returned this once for signed webhooks"}, "400": {"$ref": "#/components/responses/Error"},
                          "401": {"$ref": "#/components/responses/Error"}, "403": {"$ref": "#/components/responses/Error"}}}
        },
        "/channels/{id}": {
          "parameters": [{"$ref": "#/components/parameters/id"}],
          "get": {"summary": "A channel and its latest delivery", "responses": {"200": {"description": "The channel"}, "404": {"$ref": "#/components/responses/Error"}}},
          "delete": {"summary": "Remove a channel and its delivery log", "responses": {"204": {"description": "Removed"}, "404": {"$ref": "#/components/responses/Error"}}}
        },
        "/channels/{id}/test": {
          "parameters": [{"$ref": "#/components/parameters/id"}],
          "post": {"summary": "Send a test notification now; the answer is the provider's (status, body, or why it was refused)",
                   "responses": {"200": {"description": "What the provider answered"}, "404": {"$ref": "#/components/responses/Error"}}}
        }
      }
    }
    """#
}
