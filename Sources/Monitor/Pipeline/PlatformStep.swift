import Fetch
import Foundation
import Store
import Vocabulary

/// One platform's association file through one check, from its plan to its part of the record: the
/// check pipeline runs the same step for every platform a domain watches, and this protocol is all
/// it knows of them. A step is a stateless value (`AppleStep`, `AndroidStep`, registered in
/// `PlatformSteps`); what one check fetched of its platform travels in `FetchedPlatforms`, with the
/// core's reading of the file, and what it concluded in the `CheckSummary`.
protocol PlatformStep: Sendable {
    var platform: Platform { get }
    /// Its part of the fetch: the plan its cadences and the last check call for.
    func ask(_ context: CheckContext, into request: inout PlatformRequest)
    /// What the check as a whole reads of its fetch; nil when its platform was not fetched.
    func fetchFacts(_ fetched: FetchedPlatforms) -> PlatformFetchFacts?
    /// Its result from the fetched check (a 304 keeps the last one), as its side of the summary.
    func summarize(_ fetched: FetchedPlatforms, _ context: CheckContext, into summary: inout CheckSummary)
    /// The behavioural difference to the last file, in lines, when its file changed: read from the
    /// fetched reading and the last version's stored one. Best effort: no lines when it cannot be read back.
    func diffLines(_ fetched: FetchedPlatforms, current: CheckSummary, _ context: CheckContext, database: Database) async -> [String]
    /// Its part of the record: its files (with their readings when new to the domain), transport,
    /// results, and when its copy was asked.
    func file(_ fetched: FetchedPlatforms, step: MonitorState.Step, last: CheckSummary?, into record: inout CheckRecord) throws
    /// The findings an alert of its platform carries.
    func alertFindings(in summary: CheckSummary) -> [Finding]
}

/// The one registration of the platforms' steps: adding a kind of association file is a case of
/// `Platform` and its step here.
enum PlatformSteps {
    static func step(for platform: Platform) -> any PlatformStep {
        switch platform {
        case .apple: AppleStep()
        case .android: AndroidStep()
        }
    }

    /// The steps of the platforms `platforms` watches, in `Platform.allCases` order (Apple's first:
    /// the host's certificate and the check's latency are its fetch's when it is watched).
    static func watched(by platforms: WatchedPlatforms) -> [any PlatformStep] {
        Platform.allCases.filter(platforms.watches).map(step(for:))
    }
}

/// What the check as a whole reads of one platform's fetch.
struct PlatformFetchFacts {
    var finishedAt: Date
    /// The platform's own file as its fetcher asked it (Apple's `.well-known`, Android's assetlinks.json).
    var primary: TransportFacts
    /// An HTTP answer (any status) came from the origin for the platform's own fetch.
    var reachable: Bool
    /// The host's certificate as this fetch met it; nil when it did no full handshake.
    var certificate: CertificateSummary?
    var asked: SecondaryAsked
}

/// What one check knows before its fetch, the same for every platform's step.
struct CheckContext: Sendable {
    var domain: LeasedDomain
    var previous: MonitorState
    var started: Date
    var expectations: Expectations
    var android: [AndroidAppExpectation]
    var cadence: SecondaryCadence
    /// The digest of what the check is measured against (`CheckSummary.expectationsKey`).
    var expectationsKey: String?
    let sha256: @Sendable ([UInt8]) -> String = { SHA256.hex($0) }

    /// The last check was measured against these expectations: a 304 can keep its result. After an
    /// edit, every platform fetches in full.
    var keepsExpectations: Bool { previous.last?.expectationsKey == expectationsKey }
    /// A retry confirming an alert asks the platforms' own files; the copies keep their cadence. Not after an
    /// edit of the expectations: Google's answer is judged per expected app, so the one carried would be the old one's.
    var confirming: Bool { keepsExpectations && ConfirmationRetry.isConfirming(previous.tracks) }
}
