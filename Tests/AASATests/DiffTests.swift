import Testing
@testable import AASA

/// `AASADiff.diff`: behaviour, not bytes.
struct DiffTests {
    static let base = """
    {"applinks": {"details": [
      {"appIDs": ["ABCDE12345.com.example.app"], "components": [
        {"/": "/buy/*", "caseSensitive": false},
        {"/": "/help/website/*", "exclude": true},
        {"/": "/help/*", "?": {"articleNumber": "????"}}
      ]}]},
     "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}
    """

    @Test func sameBehaviourWrittenDifferentlyIsEqual() {
        let rewritten = """
        {"webcredentials": {"apps": ["ABCDE12345.com.example.app"]},
         "applinks": {"defaults": {"caseSensitive": false}, "details": [
          {"appID": "ABCDE12345.com.example.app", "components": [
            {"/": "buy/*/", "#": "*"},
            {"/": "/help/website/*", "exclude": true, "caseSensitive": true, "comment": "docs"},
            {"/": "/help/*", "?": {"articleNumber": "????"}, "caseSensitive": true}
          ]}]}}
        """
        let diff = AASADiff.diff(old: parsedDocument(Self.base), new: parsedDocument(rewritten),
                                 urls: ["https://example.com/BUY/1", "https://example.com/help/x?articleNumber=1234"])
        #expect(diff.isBehaviourallyEqual, "\(diff)")
        #expect(diff.description == "No change in behaviour.\n")
    }

    @Test func legacyPathsAndComponentsCanBeEqual() {
        let legacy = #"{"applinks": {"apps": [], "details": [{"appID": "T.app", "paths": ["NOT /a/*", "/b"]}]}}"#
        let modern = #"{"applinks": {"details": [{"appIDs": ["T.app"], "components": [{"/": "/a/*", "exclude": true}, {"/": "/b"}]}]}}"#
        #expect(AASADiff.diff(old: parsedDocument(legacy), new: parsedDocument(modern)).isBehaviourallyEqual)
    }

    @Test func servicesAppsAddedAndRemoved() {
        let new = """
        {"applinks": {"details": [
          {"appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"], "components": [
            {"/": "/buy/*", "caseSensitive": false},
            {"/": "/help/website/*", "exclude": true},
            {"/": "/help/*", "?": {"articleNumber": "????"}}
          ]}]},
         "webcredentials": {"apps": []},
         "appclips": {"apps": ["ABCDE12345.com.example.app.Clip"]},
         "authsrv": {"apps": ["ABCDE12345.com.example.sso"]}}
        """
        let diff = AASADiff.diff(old: parsedDocument(Self.base), new: parsedDocument(new))
        #expect(!diff.isBehaviourallyEqual)
        #expect(diff.services.map(\.service) == ["applinks", "webcredentials", "appclips", "authsrv"])
        #expect(diff.services[0].added == ["ABCDE12345.com.example.app2"])
        #expect(diff.services[1].removed == ["ABCDE12345.com.example.app"])
        #expect(diff.services[2].added == ["ABCDE12345.com.example.app.Clip"])
        #expect(diff.apps.map(\.appID) == ["ABCDE12345.com.example.app2"], "the new app's rules are all added")
        #expect(diff.apps.first?.changes.allSatisfy { $0.kind == .added } == true)
    }

    @Test func rulesAddedRemovedMovedChanged() {
        let new = """
        {"applinks": {"details": [
          {"appIDs": ["ABCDE12345.com.example.app"], "components": [
            {"/": "/help/website/*", "exclude": true},
            {"/": "/buy/*", "caseSensitive": true},
            {"/": "/sell/*"}
          ]}]},
         "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}
        """
        let diff = AASADiff.diff(old: parsedDocument(Self.base), new: parsedDocument(new),
                                 urls: ["https://example.com/BUY/1", "https://example.com/sell/1", "https://example.com/help/website/x"])
        let changes = diff.apps.first?.changes ?? []
        let kinds = Dictionary(grouping: changes, by: \.kind)
        #expect(kinds[.changed]?.first?.changedKeys == ["caseSensitive"])
        #expect(kinds[.changed]?.first?.oldPosition == 0)
        #expect(kinds[.changed]?.first?.newPosition == 1)
        #expect(kinds[.added]?.first?.newRule?.path == "/sell/*")
        #expect(kinds[.removed]?.first?.oldRule?.queryItems == ["articleNumber": "????"])
        #expect(kinds[.moved] == nil, "the exclusion is the kept subsequence; the changed /buy/* is not a move")
        #expect(diff.urls.map(\.url) == ["https://example.com/BUY/1", "https://example.com/sell/1"])
        #expect(diff.urls.first?.old == .match(entry: 0, rule: 0))
        #expect(diff.urls.first?.new == .noMatch)
        #expect(diff.openers.map(\.new) == [nil, "ABCDE12345.com.example.app"])
        let text = diff.description
        #expect(text.contains("~ changed #1 → #2 (caseSensitive)"))
        #expect(text.contains("https://example.com/BUY/1 for ABCDE12345.com.example.app: match → no_match"))
    }

    @Test func pureReorderIsAMove() {
        let a = #"{"applinks": {"details": [{"appIDs": ["T.app"], "components": [{"/": "/a"}, {"/": "/b"}, {"/": "/c"}]}]}}"#
        let b = #"{"applinks": {"details": [{"appIDs": ["T.app"], "components": [{"/": "/c"}, {"/": "/a"}, {"/": "/b"}]}]}}"#
        let diff = AASADiff.diff(old: parsedDocument(a), new: parsedDocument(b))
        #expect(diff.apps.first?.changes.map(\.kind) == [.moved])
        #expect(diff.apps.first?.changes.first?.newRule?.path == "/c")
    }

    @Test func substitutionVariableValuesCount() {
        let a = #"{"applinks": {"substitutionVariables": {"food": ["pizza", "sushi"]}, "details": [{"appIDs": ["T.app"], "components": [{"/": "/$(food)"}]}]}}"#
        let reordered = #"{"applinks": {"substitutionVariables": {"food": ["sushi", "pizza", "pizza"]}, "details": [{"appIDs": ["T.app"], "components": [{"/": "/$(food)"}]}]}}"#
        let grown = #"{"applinks": {"substitutionVariables": {"food": ["sushi", "pizza", "taco"]}, "details": [{"appIDs": ["T.app"], "components": [{"/": "/$(food)"}]}]}}"#
        #expect(AASADiff.diff(old: parsedDocument(a), new: parsedDocument(reordered)).isBehaviourallyEqual)
        let diff = AASADiff.diff(old: parsedDocument(a), new: parsedDocument(grown))
        #expect(diff.apps.first?.changes.first?.changedKeys == ["$(food)"])
    }

    @Test func appPrecedenceChange() {
        let a = #"{"applinks": {"details": [{"appIDs": ["T.one"], "components": [{"/": "*"}]}, {"appIDs": ["T.two"], "components": [{"/": "*"}]}]}}"#
        let b = #"{"applinks": {"details": [{"appIDs": ["T.two"], "components": [{"/": "*"}]}, {"appIDs": ["T.one"], "components": [{"/": "*"}]}]}}"#
        let diff = AASADiff.diff(old: parsedDocument(a), new: parsedDocument(b), urls: ["https://example.com/x"])
        #expect(diff.appOrder == AppOrderChange(old: ["T.one", "T.two"], new: ["T.two", "T.one"]))
        #expect(diff.openers == [URLOpenerChange(url: "https://example.com/x", old: "T.one", new: "T.two")])
        #expect(diff.urls.isEmpty, "each app still matches")
    }

    @Test func diffIsCodable() throws {
        let diff = AASADiff.diff(old: parsedDocument(Self.base), new: AASADocument(), urls: ["https://example.com/buy/1"])
        let data = try JSONEncoder().encode(diff)
        let back = try JSONDecoder().decode(DocumentDiff.self, from: data)
        #expect(back == diff)
    }
}

import Foundation
