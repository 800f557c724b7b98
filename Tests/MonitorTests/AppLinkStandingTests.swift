import AASA
import Monitor
import Testing
import Vocabulary

/// A link of an app against one check: the app's own IDs in the link's service, and the CDN only
/// when devices read it.
@Suite struct AppLinkStandingTests {
    static let app = "ABCDE12345.com.example.app"
    static let cdn = FindingDefinition.cdnFailure.finding(at: nil, "Apple's CDN answered 404.")

    @Test func theAppsOwnIDsInTheLinksServiceDecide() {
        let missing = ExpectationResults(missingAppIDs: [.applinks: [Self.app, "ABCDE12345.other"]])
        #expect(AppLinkStanding.evaluate(findings: [], expectations: missing, service: .applinks, appIDs: [Self.app], developerMode: false)
                == (.fail, "\(Self.app) is not in the file's applinks."))
        #expect(AppLinkStanding.evaluate(findings: [], expectations: missing, service: .webcredentials, appIDs: [Self.app], developerMode: false)
                == (.pass, nil))
        #expect(AppLinkStanding.evaluate(findings: [], expectations: missing, service: .applinks, appIDs: ["ABCDE12345.third"], developerMode: false)
                == (.pass, nil), "another app's missing ID is not this link's problem")
    }

    @Test func developerModeLinksIgnoreTheCDN() {
        #expect(AppLinkStanding.evaluate(findings: [Self.cdn], expectations: nil, service: .applinks, appIDs: [], developerMode: false)
                == (.fail, "Apple's CDN answered 404."))
        #expect(AppLinkStanding.evaluate(findings: [Self.cdn], expectations: nil, service: .applinks, appIDs: [], developerMode: true)
                == (.pass, nil))
    }

    @Test func sinceIsTheStartOfTheCurrentRun() {
        let history: [(time: Double, verdict: Verdict)] = [(50, .fail), (40, .fail), (30, .pass), (20, .fail)]
        #expect(AppLinkStanding.since(.fail, history: history).map { [$0.time] } == [40])
        #expect(AppLinkStanding.since(.fail, history: history).map(\.atLeast) == false)
        #expect(AppLinkStanding.since(.fail, history: [(50, .fail), (40, .fail)]).map(\.atLeast) == true)
        #expect(AppLinkStanding.since(.pass, history: []) == nil)
    }
}
