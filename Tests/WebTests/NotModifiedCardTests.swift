import Foundation
import Monitor
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Web

/// A check whose `.well-known` fetch was answered 304 to our If-None-Match, on the domain page, from the
/// real pipeline (nginx answers the conditional request itself): the origin card says the file is
/// unchanged since its version was first seen, with the last full answer's facts, instead of
/// "Status 304" as if the origin had answered Apple's fetcher so; and nothing judges the 304.
@Suite(.serialized) struct NotModifiedCardTests {
    static let aasaPath = "/.well-known/apple-app-site-association"

    @Test func a304IsShownAsUnchangedWithTheLastFullAnswerAndJudgedByNoOne() async throws {
        try await PlatformPageTests.withSetup { fleet, client, db, pipeline in
            // The AASA is made an hour old (as a deployed file is: its ETag is trusted, so the next check
            // asks conditionally); assetlinks.json changes between the checks, so the second one is a
            // changed check (a new Android version) whose stored transport holds Apple's 304.
            let host = PlatformPageTests.host
            let id = try await Self.registerAndCheck(aging: Self.aasaPath, fleet, client, db, pipeline)
            let first = try #require(try db.domain(id: id))
            #expect(first.lastVerdict == .pass, "\(first.lastReason?.line ?? "")")
            let firstCheck = try #require(try first.lastCheckID.flatMap { try db.check(id: $0) })

            let other = "BB:" + Array(repeating: "22", count: 31).joined(separator: ":")
            try PlatformPageTests.write(fleet, "assetlinks.json", PlatformPageTests.assetLinks(other))
            let before = fleet.requests().count
            try await PlatformPageTests.checkDue(pipeline)
            let asked = fleet.requests().dropFirst(before).filter { $0.host == host && $0.uri == Self.aasaPath }
            #expect(asked.map(\.status) == [304], "Apple's file was asked conditionally: \(asked)")
            let latest = try #require(try db.domain(id: id)?.lastCheckID.flatMap { try db.check(id: $0) })
            #expect(try db.transport(checkID: latest.id)?.wellKnown?.notModified == true, "the changed check stored Apple's 304")

            // Nothing judges it: the domain passes, Apple's side has no findings, no alert is open.
            #expect(try db.domain(id: id)?.lastVerdict == .pass)
            #expect(latest.verdict == .pass && latest.findings == firstCheck.findings, "the kept findings: \(latest.findings)")
            #expect(latest.originVersionSHA256 == firstCheck.originVersionSHA256, "the check refers to the kept version")
            #expect(try db.value("SELECT count(*)::int FROM alerts WHERE state = 'open'", as: Int.self) == 0)

            let page = client.get("/domains/\(id)").bodyText
            let locations = PlatformPageTests.from("locations", in: page)
            #expect(locations.contains("304 Not Modified to our conditional request (If-None-Match): unchanged since "), "\(locations.prefix(1500))")
            #expect(!locations.contains("<dt>Status</dt><dd>304</dd>"), "not shown as the origin's status")
            let full = try #require(try db.checks(domainID: id, onlyChanges: true, limit: 5).last)
            #expect(locations.contains("<dt>Last full answer</dt><dd>\(DisplayTime.dateTime(full.startedAt)): status 200</dd>"),
                    "\(locations.prefix(1500))")
            let size = try #require(try db.transport(checkID: full.id)?.wellKnown?.decodedSize)
            #expect(locations.contains("<dt>Size</dt><dd>\(size) bytes</dd>") && size > 0, "the last full answer's size, not the 304's 0")
            #expect(PlatformPageTests.from("platform-apple", in: page).prefix(300).contains("state-passing"))
            #expect(page.contains("id=\"file\""), "the current file is still shown")
        }
    }

    /// Android's side of the same: assetlinks.json answers 304 while the AASA changes, and the Android
    /// origin card finds the last full answer among the earlier changed checks.
    @Test func androidsOriginCardShowsItsLastFullAnswerToo() async throws {
        try await PlatformPageTests.withSetup { fleet, client, db, pipeline in
            let host = PlatformPageTests.host
            let assetLinksPath = "/.well-known/assetlinks.json"
            let id = try await Self.registerAndCheck(aging: assetLinksPath, fleet, client, db, pipeline)
            let fullAnswer = try #require(try db.domain(id: id)?.lastCheckID.flatMap { try db.check(id: $0) })

            try PlatformPageTests.write(fleet, "apple-app-site-association",
                                        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.shop"], "components": [{"/": "/other/*"}]}]}}"#)
            let before = fleet.requests().count
            try await PlatformPageTests.checkDue(pipeline)
            let asked = fleet.requests().dropFirst(before).filter { $0.host == host && $0.uri == assetLinksPath }
            #expect(asked.map(\.status) == [304], "Android's file was asked conditionally: \(asked)")
            let latest = try #require(try db.domain(id: id)?.lastCheckID)
            let stored = try db.transport(checkID: latest)?.assetLinks
            #expect(latest != fullAnswer.id && stored?.notModified == true, "a changed check stored Android's 304")

            let card = PlatformPageTests.from("android-locations", in: client.get("/domains/\(id)").bodyText)
            #expect(card.contains("<dt>Last full answer</dt><dd>\(DisplayTime.dateTime(fullAnswer.startedAt)): status 200</dd>"),
                    "\(card.prefix(1500))")
            let size = try #require(try db.transport(checkID: fullAnswer.id)?.assetLinks?.decodedSize)
            #expect(card.contains("<dt>Size</dt><dd>\(size) bytes</dd>") && size > 0, "the last full answer's size, not the 304's 0")
        }
    }

    /// `path` made an hour old on the fleet (a deployed file: its ETag is trusted, so the next check
    /// asks conditionally), then the host registered for both platforms and checked once.
    static func registerAndCheck(aging path: String, _ fleet: TestTLSFleet, _ client: WebClient, _ db: Database,
                                 _ pipeline: CheckPipeline) async throws -> Int64 {
        let host = PlatformPageTests.host
        for site in ["_default", host] {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)],
                ofItemAtPath: fleet.directory.appendingPathComponent("www/\(site)\(path)").path)
        }
        client.get("/domains/new")
        #expect(client.post("/domains", [("host", host), ("interval", "60"), ("platforms", "both")]).status == 303)
        let id = try #require(try db.domain(host: host)?.id)
        try await PlatformPageTests.checkDue(pipeline)
        return id
    }
}
