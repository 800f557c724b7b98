@testable import AssetLinks
import Foundation
import Testing
import Vocabulary

/// The pure judgement of one Android check: transport facts, includes, expectations and Google's answer
/// in; findings and a verdict out (assetlinks-spec.md §10.1, §10.5). The same facts come from the real
/// TLS fleet in FetchTests; here each rule is pinned on its own.
@Suite struct AndroidCheckEvaluationTests {
    static let signing = SpecExampleTests.fingerprint
    static let upload = "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89"
    static let url = "https://shop.example.com/.well-known/assetlinks.json"

    static func file(_ fingerprints: [String] = [signing], package: String = "com.example.shop", rules: String? = nil) -> [UInt8] {
        let list = fingerprints.map { "\"\($0)\"" }.joined(separator: ", ")
        let extensions = rules.map {
            #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \#($0)}}"#
        } ?? ""
        return Array("""
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "\(package)", "sha256_cert_fingerprints": [\(list)]}\(extensions)}]
            """.utf8)
    }

    static func served(_ body: [UInt8], type: String? = "application/json", status: Int = 200, agent: String = "GoogleAssociationService") -> TransportFacts {
        var facts = TransportFacts(location: .wellKnown, url: url, status: status,
                                   headers: type.map { ["content-type": $0] } ?? [:], body: body, tls: TLSFacts(trusted: true))
        facts.userAgent = agent
        return facts
    }

    static let shop = AndroidAppExpectation(packageName: "com.example.shop", fingerprints: [signing, upload], uploadKeys: [upload])

    static func codes(_ facts: AndroidCheckFacts) -> [String] { AndroidCheckEvaluation.evaluate(facts).findings.map(\.code) }

    @Test func goodFileWithItsAppsPasses() {
        let report = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: Self.served(Self.file([Self.signing, Self.upload])),
                                                                       expectations: [Self.shop]))
        #expect(report.verdict == .pass && report.serves)
        #expect(report.findings.isEmpty, "\(report.findings)")
    }

    @Test func redirectIsReportedWithItsTargetAndNeverRead() {
        var facts = Self.served([], status: 301)
        facts.redirectTarget = "https://www.shop.example.com/.well-known/assetlinks.json"
        let report = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: facts, expectations: [Self.shop]))
        let redirect = report.findings.first { $0.code == "redirect-not-allowed" }
        #expect(redirect?.message.contains("https://www.shop.example.com/.well-known/assetlinks.json") == true)
        #expect(!report.findings.contains { $0.code == "http-status" }, "a redirect supersedes http-status")
        #expect(report.findings.contains { $0.code == "expected-package-missing" })
        #expect(report.verdict == .fail && !report.serves)
    }

    @Test func noFileAndNoAppIsNotAFailure() {
        let report = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: Self.served(Array("not found".utf8), type: "text/html", status: 404)))
        #expect(report.findings.map(\.code) == ["http-status"])
        #expect(report.findings.first?.severity == .info && report.verdict == .pass)
        let expected = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: Self.served([], status: 404), expectations: [Self.shop]))
        #expect(expected.findings.first { $0.code == "http-status" }?.severity == .error)
        let fetchError = GoogleAnswer.answered(list: GoogleStatementList(errorCodes: ["ERROR_CODE_FETCH_ERROR"]), checks: [])
        let unpublished = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: Self.served([], status: 404), google: fetchError))
        #expect(unpublished.verdict == .pass, "Google failing to fetch a file nobody needs is no failure either")
        let needed = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: Self.served([], status: 404), google: fetchError,
                                                                       expectations: [Self.shop]))
        #expect(needed.findings.first { $0.code == "google-verdict-error" }?.severity == .error)
        let wildcard = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: Self.served([], status: 404), wildcard: true))
        #expect(wildcard.findings.map(\.code).contains("wildcard-file-missing") && wildcard.verdict == .fail)
    }

    /// Google's debugString opens with a banner; the finding quotes the first line that says what went
    /// wrong (it quoted "*** ERRORS ***", issue #31), and nothing when no line does.
    @Test func googlesReasonIsTheFirstMeaningfulLineOfItsDebugString() {
        func message(_ debugString: String?) -> String {
            var list = GoogleStatementList(errorCodes: ["ERROR_CODE_FETCH_ERROR"])
            list.debugString = debugString
            let report = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: Self.served(Self.file()),
                                                                           google: .answered(list: list, checks: [])))
            return report.findings.first { $0.code == "google-verdict-error" }?.message ?? ""
        }
        let real = """
            ********************* ERRORS *********************
            Error: deadline_exceeded: Timeout occurred while fetching Web statements from https://shop.example.com./.well-known/assetlinks.json.
            ********************* INFO MESSAGES *********************
            * Info: No statements were found that match your query
            """
        let quoted = message(real)
        #expect(quoted.hasSuffix("(Error: deadline_exceeded: Timeout occurred while fetching Web statements from https://shop.example.com./.well-known/assetlinks.json.)."))
        #expect(!quoted.contains("ERRORS"))
        let bare = message(nil)
        #expect(message("********************* ERRORS *********************\nNone!\n") == bare)
        #expect(message("\n  \n") == bare)
        #expect(!bare.contains("(") && bare.hasPrefix("Google's API reports ERROR_CODE_FETCH_ERROR for this site: "))
        #expect(AndroidCheckEvaluation.debugReason(String(repeating: "x", count: 400))?.count == 300)
    }

    /// A domain watched for Android only: its owner says the host publishes the file, so a 404 is an
    /// error (and Google's failing to fetch it counts) even with no app expected.
    @Test func noFileOnAnAndroidOnlyDomainIsAFailure() {
        var facts = AndroidCheckFacts(origin: Self.served(Array("not found".utf8), type: "text/html", status: 404),
                                      google: .answered(list: GoogleStatementList(errorCodes: ["ERROR_CODE_FETCH_ERROR"]), checks: []))
        facts.fileRequired = true
        let report = AndroidCheckEvaluation.evaluate(facts)
        #expect(report.findings.first { $0.code == "http-status" }?.severity == .error)
        #expect(report.findings.first { $0.code == "google-verdict-error" }?.severity != .info)
        #expect(report.verdict == .fail && !report.serves)
    }

    @Test func contentTypeAndHTMLFallback() {
        #expect(Self.codes(AndroidCheckFacts(origin: Self.served(Self.file(), type: "application/json; charset=utf-8"))) == [])
        #expect(Self.codes(AndroidCheckFacts(origin: Self.served(Self.file(), type: "text/plain"))) == ["content-type-not-json"])
        #expect(Self.codes(AndroidCheckFacts(origin: Self.served(Self.file(), type: nil))) == ["content-type-not-json"])
        let spa = Self.codes(AndroidCheckFacts(origin: Self.served(Array("<!doctype html><p>app".utf8), type: "text/html")))
        #expect(spa.contains("body-is-html") && spa.contains("content-type-not-json"))
    }

    @Test func truncatedLargeBodyIsOverTheLimit() {
        var facts = Self.served(Array(repeating: UInt8(ascii: " "), count: 1000) + Self.file())
        facts.decodedSize = 2_000_000
        facts.bodyTruncated = true
        #expect(Self.codes(AndroidCheckFacts(origin: facts)).contains("size-over-limit"))
        let aborted = TransportFacts(location: .wellKnown, url: Self.url, failure: FetchFailure(kind: .tooLarge, message: "too big"))
        #expect(Self.codes(AndroidCheckFacts(origin: aborted)) == ["size-over-limit"])
    }

    @Test func fetchFailuresAndCouldNotCheck() {
        let timeout = TransportFacts(location: .wellKnown, url: Self.url, failure: FetchFailure(kind: .timeout, message: "no answer"))
        let report = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: timeout))
        #expect(report.findings.map(\.code) == ["fetch-failed"] && report.couldNotCheck)
        let expired = TransportFacts(location: .wellKnown, url: Self.url, failure: FetchFailure(kind: .tlsExpired, message: "expired"))
        let tls = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: expired))
        #expect(tls.findings.map(\.code) == ["tls-untrusted"] && !tls.couldNotCheck)
    }

    @Test func fetcherBlockedOnlyForGoogle() {
        let google = Self.served(Array("denied".utf8), type: "text/html", status: 403)
        let browser = Self.served(Self.file(), agent: "Mozilla/5.0")
        let report = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: google, otherUserAgents: [browser]))
        let blocked = report.findings.first { $0.code == "fetcher-blocked" }
        #expect(blocked?.severity == .error && blocked?.message.contains("Mozilla/5.0") == true)
        // The same file reformatted is no difference; another fingerprint is.
        let reformatted = Self.served(Array(String(decoding: Self.file(), as: UTF8.self).replacingOccurrences(of: "\n", with: " ").utf8),
                                      agent: "Mozilla/5.0")
        #expect(!Self.codes(AndroidCheckFacts(origin: Self.served(Self.file()), otherUserAgents: [reformatted])).contains("fetcher-blocked"))
        let other = Self.served(Self.file([Self.upload]), agent: "Mozilla/5.0")
        #expect(Self.codes(AndroidCheckFacts(origin: Self.served(Self.file()), otherUserAgents: [other])).contains("fetcher-blocked"))
    }

    @Test func expectationsNameTheMissingKey() {
        let uploadOnly = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: Self.served(Self.file([Self.upload])), expectations: [Self.shop]))
        #expect(uploadOnly.findings.map(\.code) == ["fingerprint-upload-key-only"])
        #expect(uploadOnly.findings.first?.message.contains(Self.signing) == true)
        let signingOnly = Self.codes(AndroidCheckFacts(origin: Self.served(Self.file([Self.signing])), expectations: [Self.shop]))
        #expect(signingOnly == ["expected-fingerprint-missing"])
        let otherPackage = Self.codes(AndroidCheckFacts(origin: Self.served(Self.file(package: "com.other")), expectations: [Self.shop]))
        #expect(otherPackage == ["expected-package-missing"])
        // Named, but only for another relation.
        let creds = Array(#"[{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\#(Self.signing)"]}}]"#.utf8)
        #expect(Self.codes(AndroidCheckFacts(origin: Self.served(creds), expectations: [Self.shop])) == ["handle-all-urls-missing"])
        var wantsCreds = AndroidAppExpectation(packageName: "com.example.shop", fingerprints: [Self.signing])
        wantsCreds.loginCredentials = true
        #expect(Self.codes(AndroidCheckFacts(origin: Self.served(Self.file()), expectations: [wantsCreds])) == ["login-creds-missing"])
        // Lower-case input of an expectation is the same key.
        let lower = AndroidAppExpectation(packageName: "com.example.shop", fingerprints: [Self.signing.lowercased()])
        #expect(Self.codes(AndroidCheckFacts(origin: Self.served(Self.file()), expectations: [lower])) == [])
    }

    @Test func includesExtendTheStatements() {
        let including = Array(#"[{"include": "https://other.example/more.json"}]"#.utf8)
        let reading = AssetLinksReader.read(including)
        let resolution = IncludeResolver.resolve(reading) { $0 == "https://other.example/more.json" ? Self.file() : nil }
        #expect(resolution.fetched == ["https://other.example/more.json"])
        let report = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: Self.served(including), includes: resolution,
                                                                       expectations: [AndroidAppExpectation(packageName: "com.example.shop", fingerprints: [Self.signing])]))
        #expect(!report.findings.contains { $0.severity == .error }, "\(report.findings)")
        #expect(report.file?.packageNames == ["com.example.shop"])
    }

    @Test func googleAgreesErrsOrLags() {
        let origin = Self.served(Self.file(rules: #"[{"/": "/p/*"}]"#))
        let extensions = #"{"dynamic_app_link_components":[{"/":"/p/*"}]}"#
        let agreeing = GoogleStatementList(statements: [GoogleStatement(
            relation: "delegate_permission/common.handle_all_urls", namespace: "android_app", packageName: "com.example.shop",
            fingerprint: Self.signing, relationExtensions: extensions)], maxAgeSeconds: 600)
        let linked = GoogleLinkCheck(relation: "delegate_permission/common.handle_all_urls", packageName: "com.example.shop",
                                     fingerprint: Self.signing, linked: true)
        let app = AndroidAppExpectation(packageName: "com.example.shop", fingerprints: [Self.signing])
        let same = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: origin, google: .answered(list: agreeing, checks: [linked]),
                                                                     expectations: [app]))
        #expect(same.googleDiff?.isBehaviourallyEqual == true)
        #expect(same.findings.filter { $0.severity != .info }.isEmpty, "\(same.findings)")

        var otherRules = agreeing
        otherRules.statements[0].relationExtensions = #"{"dynamic_app_link_components":[{"/":"/q/*"}]}"#
        let lagging = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: origin, google: .answered(list: otherRules, checks: [linked])))
        #expect(lagging.findings.first { $0.code == "google-stale" }?.severity == .warning)
        let recent = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: origin, google: .answered(list: otherRules, checks: []),
                                                                       originChangedSecondsAgo: 120))
        #expect(recent.findings.first { $0.code == "google-stale" }?.severity == .info, "within maxAge + 1 h")

        var failing = GoogleStatementList(errorCodes: ["ERROR_CODE_REDIRECT"])
        failing.debugString = "Redirects are not allowed"
        let notLinked = GoogleLinkCheck(relation: linked.relation, packageName: "com.example.shop", fingerprint: Self.signing,
                                        linked: false, errorCodes: ["ERROR_CODE_REDIRECT"])
        let broken = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: origin, google: .answered(list: failing, checks: [notLinked]),
                                                                       expectations: [app]))
        let codes = broken.findings.map(\.code)
        #expect(codes.filter { $0 == "google-verdict-error" }.count == 1, "one finding per error code")
        #expect(codes.contains("google-not-linked") && codes.contains("google-stale"))
        #expect(broken.findings.first { $0.code == "google-verdict-error" }?.message.contains("ERROR_CODE_REDIRECT") == true)

        let unavailable = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: origin, google: .unavailable(reason: "timeout")))
        #expect(unavailable.findings.first { $0.code == "google-unavailable" }?.severity == .info)
        #expect(unavailable.verdict == .pass, "only the file's info findings besides")
    }

    @Test func wrongContentTypeIsAWarningWhileGoogleStillLinks() {
        let origin = Self.served(Self.file(), type: "text/plain")
        let linked = GoogleLinkCheck(relation: "delegate_permission/common.handle_all_urls", packageName: "com.example.shop",
                                     fingerprint: Self.signing, linked: true)
        let list = GoogleStatementList(statements: [GoogleStatement(relation: linked.relation, namespace: "android_app",
                                                                    packageName: "com.example.shop", fingerprint: Self.signing)])
        let report = AndroidCheckEvaluation.evaluate(AndroidCheckFacts(origin: origin, google: .answered(list: list, checks: [linked]),
                                                                       expectations: [AndroidAppExpectation(packageName: "com.example.shop", fingerprints: [Self.signing])]))
        #expect(report.findings.map(\.code) == ["content-type-not-json"] && report.findings.first?.severity == .warning)
    }

    @Test func docsListEveryCheckCodeWithItsSeverity() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/findings.md")
        let documented = FindingDocsTable.codes(in: try String(contentsOf: docs, encoding: .utf8), section: "Transport and Google's verdict")
        let catalog = Dictionary(uniqueKeysWithValues: AndroidCheckFindingCatalog.all.map { ($0.code, $0.severity.rawValue) })
        #expect(Set(catalog.keys).subtracting(documented.keys).sorted() == [], "codes missing from docs/findings.md")
        #expect(Set(documented.keys).subtracting(catalog.keys).sorted() == [], "documented codes the evaluation never emits")
        for (code, severity) in catalog { #expect(documented[code] == severity, "severity of \(code)") }
    }
}

@Suite struct GoogleResponseParserTests {
    static let fingerprint = SpecExampleTests.fingerprint

    @Test func statementListAsGoogleSendsIt() throws {
        let body = """
            {"statements": [
              {"source": {"web": {"site": "https://shop.example.com."}},
               "relation": "delegate_permission/common.handle_all_urls",
               "target": {"androidApp": {"packageName": "com.example.shop", "certificate": {"sha256Fingerprint": "\(Self.fingerprint)"}}},
               "relationExtensions": {"dynamic_app_link_components": [{"/": "/p/*", "exclude": false}]}},
              {"source": {"web": {"site": "https://shop.example.com."}},
               "relation": "delegate_permission/common.get_login_creds",
               "target": {"web": {"site": "https://login.example.com."}}}],
             "maxAge": "599.5s", "debugString": "********************* ERRORS *********************\\nNone!", "newField": 1}
            """
        let list = try GoogleResponseParser.statementList(Array(body.utf8)).get()
        #expect(list.statements.count == 2 && list.errorCodes.isEmpty && list.maxAgeSeconds == 599.5)
        #expect(list.statements[0].relationExtensions == #"{"dynamic_app_link_components":[{"/":"/p/*","exclude":false}]}"#)
        #expect(list.statements[1] == GoogleStatement(relation: "delegate_permission/common.get_login_creds", namespace: "web",
                                                      site: "https://login.example.com."))
        // Rebuilt as a file, Google's copy reads like the origin's: the trailing dot and flattening do not matter.
        let file = list.file
        #expect(file.packageNames == ["com.example.shop"])
        #expect(file.statements.last?.target == .web(site: "https://login.example.com"))
        #expect(file.statements.first?.dynamicRules?.rules?.first?.path == "/p/*")
    }

    @Test func checkAnswersAndErrors() throws {
        let linked = try GoogleResponseParser.check(Array(#"{"linked": true, "maxAge": "600s"}"#.utf8), relation: "r/x",
                                                   packageName: "a.b", fingerprint: Self.fingerprint).get()
        #expect(linked.linked && linked.maxAgeSeconds == 600 && linked.packageName == "a.b")
        let missing = try GoogleResponseParser.check(Array(#"{"errorCode": ["ERROR_CODE_REDIRECT"], "maxAge": "60s"}"#.utf8),
                                                    relation: "r/x", packageName: "a.b", fingerprint: "F").get()
        #expect(!missing.linked && missing.errorCodes == ["ERROR_CODE_REDIRECT"])
        let refused = GoogleResponseParser.statementList(Array(#"{"error": {"code": 400, "message": "Invalid site", "status": "INVALID_ARGUMENT"}}"#.utf8))
        #expect(throws: GoogleResponseError.self) { try refused.get() }
        for bad in ["", "[]", "{\"statements\": 3}", "{\"statements\": [{\"relation\": 1}]}", "{\"linked\": \"yes\"}", "{\"a\":"] {
            let list = GoogleResponseParser.statementList(Array(bad.utf8))
            let check = GoogleResponseParser.check(Array(bad.utf8), relation: "r/x", packageName: "a.b", fingerprint: "F")
            #expect((try? list.get()) == nil || (try? check.get()) == nil, "\(bad)")
        }
    }

    @Test func durations() {
        #expect(GoogleResponseParser.duration("600s") == 600)
        #expect(GoogleResponseParser.duration("3.000000001s") == 3.000000001)
        for bad in ["600", "s", "-1s", "1e3s", "1.2.3s", "nans", "infs"] { #expect(GoogleResponseParser.duration(bad) == nil, "\(bad)") }
    }
}
