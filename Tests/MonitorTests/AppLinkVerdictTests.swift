import AASA
import AssetLinks
import Foundation
import Monitor
import Store
import Testing
import Vocabulary

/// A link of an app against one check: the app's own IDs in the link's service, and the CDN only
/// when devices read it.
@Suite struct AppLinkVerdictTests {
    static let app = "ABCDE12345.com.example.app"
    static let cdn = FindingDefinition.cdnFailure.finding(at: nil, "Apple's CDN answered 404.")

    @Test func theAppsOwnIDsInTheLinksServiceDecide() {
        let missing = ExpectationResults(missingAppIDs: [.applinks: [Self.app, "ABCDE12345.other"]])
        #expect(AppLinkVerdict.evaluate(findings: [], expectations: missing, service: .applinks, appIDs: [Self.app], developerMode: false)
                == (.fail, "App ID \(Self.app) is missing from applinks."), "the domain's own words (DomainVerdict.apple)")
        #expect(AppLinkVerdict.evaluate(findings: [], expectations: missing, service: .webcredentials, appIDs: [Self.app], developerMode: false)
                == (.pass, nil))
        #expect(AppLinkVerdict.evaluate(findings: [], expectations: missing, service: .applinks, appIDs: ["ABCDE12345.third"], developerMode: false)
                == (.pass, nil), "another app's missing ID is not this link's problem")
    }

    @Test func developerModeLinksIgnoreTheCDN() {
        #expect(AppLinkVerdict.evaluate(findings: [Self.cdn], expectations: nil, service: .applinks, appIDs: [], developerMode: false)
                == (.fail, "Apple's CDN answered 404."))
        #expect(AppLinkVerdict.evaluate(findings: [Self.cdn], expectations: nil, service: .applinks, appIDs: [], developerMode: true)
                == (.pass, nil))
    }

    @Test func aRunStartsWhereTheVerdictLastChangedAndRefoldingChangesNothing() {
        func t(_ s: Double) -> Date { Date(timeIntervalSince1970: s) }
        let checks: [(checkID: Int64, time: Date, verdict: Verdict?)] = [(1, t(10), nil), (2, t(20), .fail), (3, t(30), .pass), (4, t(40), .fail), (5, t(50), .fail)]
        let run = AppLinkVerdict.fold(nil, domainID: 7, platform: .apple, service: .applinks, checks: checks)
        #expect(run == AppLinkRun(domainID: 7, platform: .apple, service: .applinks, throughCheckID: 5, verdict: .fail, since: t(40)))
        // The reader folds from the oldest end any link reached, so a run sees checks it already has.
        #expect(AppLinkVerdict.fold(run, domainID: 7, platform: .apple, service: .applinks, checks: Array(checks[2...])) == run)
        // Newer checks move it: an equal verdict extends the run, another starts a new one.
        let extended = AppLinkVerdict.fold(run, domainID: 7, platform: .apple, service: .applinks, checks: [(5, t(50), .fail), (6, t(60), .fail)])
        #expect(extended?.since == t(40) && extended?.throughCheckID == 6)
        let broken = AppLinkVerdict.fold(extended, domainID: 7, platform: .apple, service: .applinks, checks: [(7, t(70), .pass)])
        #expect(broken?.since == t(70) && broken?.verdict == .pass)
        // However long the run, its start is exact: 1,000 equal checks after the change.
        let long = [(checkID: Int64(1), time: t(1), verdict: Optional(Verdict.pass))]
            + (2...1001).map { (checkID: Int64($0), time: t(Double($0)), verdict: Optional(Verdict.fail)) }
        #expect(AppLinkVerdict.fold(nil, domainID: 7, platform: .apple, service: .applinks, checks: long)?.since == t(2))
    }

    static let package = "com.example.app"
    static let signing = String(repeating: "AB:", count: 31) + "AB"
    static let upload = String(repeating: "CD:", count: 31) + "CD"

    @Test func androidLinksAreJudgedByWhatTheFileGrantsTheirPackage() {
        func result(granted: [String], named: Bool = true, findings: [Finding] = [], serves: Bool = true, notLinked: [String] = []) -> AndroidResult {
            AndroidResult(verdict: .pass, serves: serves, findings: findings, identities: [
                AndroidIdentityResult(packageName: Self.package, expectedFingerprints: [Self.signing, Self.upload], uploadKeys: [Self.upload],
                                      named: named, grantedFingerprints: granted),
                AndroidIdentityResult(packageName: "com.other.app", expectedFingerprints: [Self.signing], named: false, grantedFingerprints: []),
            ], google: GoogleVerdict(notLinked: notLinked))
        }
        /// The verdict and reason as one line, "nil" when not measured.
        func judged(_ r: AndroidResult?) -> String {
            AppLinkVerdict.evaluateAndroid(r, packageName: Self.package, host: "shop.example").map { "\($0.verdict) \($0.reason ?? "-")" } ?? "nil"
        }
        let otherMissing = AndroidCheckFinding.expectedPackageMissing.finding(at: nil, "com.other.app is not in the file.")
        #expect(judged(nil) == "nil", "not fetched yet: no verdict")
        #expect(judged(result(granted: [Self.signing, Self.upload], findings: [otherMissing])) == "pass -",
                "another app's missing package is not this link's problem")
        // In the check's own words (AndroidCheckEvaluation.identityFindings), as the domain page and verify-app say them.
        let url = "https://shop.example/.well-known/assetlinks.json"
        #expect(judged(result(granted: [], named: false)) == "fail \(url) grants nothing to com.example.app; its App Links do not verify.")
        #expect(judged(result(granted: [], named: true)) == "fail com.example.app is named in \(url), but no valid statement grants it "
                + "delegate_permission/common.handle_all_urls; its App Links do not verify.")
        #expect(judged(result(granted: [Self.upload])) == "fail \(url) lists only the upload key of com.example.app, not its app-signing key "
                + "\(Self.signing); apps installed from Google Play are signed with the app-signing key and do not verify.")
        #expect(judged(result(granted: [Self.signing])) == "fail \(url) grants handle_all_urls to com.example.app, but not with \(Self.upload); "
                + "builds signed with that key do not verify.")
        // Google saying the app is not linked fails the link, as it fails the domain's Android side and verify-app's case.
        #expect(judged(result(granted: [Self.signing, Self.upload], notLinked: ["\(Self.package) \(Self.signing)"]))
                == "fail Google's API says com.example.app with \(Self.signing) is not linked to this site for "
                + "delegate_permission/common.handle_all_urls; devices that rely on Google's verdict do not verify it.")
        // The file's own problem explains the rest, so it is the reason.
        let notFound = AndroidCheckFinding.httpStatus.finding(at: nil, "assetlinks.json answered 404.")
        #expect(judged(result(granted: [], named: false, findings: [notFound], serves: false)) == "fail assetlinks.json answered 404.")
    }
}
