import Vocabulary
import Foundation
import Store

extension DomainPageModel.LocationView {
    /// One location's card from the facts its check stored; `versionHash` is the file it served.
    init(_ facts: TransportFacts, versionHash: String?) {
        // The fetcher measures in seconds (curl's unit); the page speaks milliseconds.
        let timings = facts.timings
        let phases: [(name: String, milliseconds: Double)] = timings.map {
            [("DNS", $0.dns * 1000), ("connect", $0.connect * 1000), ("TLS", $0.tls * 1000), ("first byte", $0.firstByte * 1000)]
        } ?? []
        self.init(title: Self.title(facts.location), url: facts.url, status: facts.status, contentType: facts.header("content-type"),
                  size: facts.decodedSize, versionHash: versionHash, tlsIssuer: facts.tls?.issuer,
                  certificateNames: facts.tls?.subjectNames ?? [],
                  certificateNotAfter: facts.tls?.notAfter.map(DomainHandlers.epoch),
                  totalMilliseconds: timings.map { $0.total * 1000 }, phaseMilliseconds: phases,
                  failure: facts.failure.map { "\($0.kind.rawValue): \($0.message)" }, isCDN: facts.location == .cdn)
    }

    /// This card, when its location answered 304 to our If-None-Match, explained: the version it stands
    /// for and when that was first seen, and the last full answer of the same location among the
    /// domain's latest changed checks (`pick` finds the location's facts in a check's transport).
    func explainingNotModified(_ facts: TransportFacts, versionFirstSeen: Date?, domainID: Int64, db: any CheckStore,
                               _ pick: @escaping (CheckTransport) -> TransportFacts?) throws -> Self {
        guard facts.notModified else { return self }
        var card = self
        var view = DomainPageModel.NotModifiedView(since: versionFirstSeen.map(DomainHandlers.epoch))
        let full = try db.newestChangedTransport(domainID: domainID, limit: 50) { transport in
            pick(transport).flatMap { !$0.notModified && $0.status != nil ? $0 : nil }
        }
        if let full {
            view.fullAnswerAt = DomainHandlers.epoch(full.startedAt)
            view.status = full.facts.status
            view.contentType = full.facts.header("content-type")
            view.size = full.facts.decodedSize
        }
        card.notModified = view
        return card
    }

    static func title(_ location: TransportFacts.Location) -> String {
        switch location {
        case .wellKnown: "Origin: /.well-known/apple-app-site-association"
        case .root: "Origin: /apple-app-site-association (legacy)"
        case .cdn: "Apple CDN (what devices download)"
        }
    }
}
