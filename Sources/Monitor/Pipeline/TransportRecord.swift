import AASA
import Fetch

/// The per-location transport facts of a check as stored with it: everything but the bodies,
/// which live once in `aasa_versions`.
struct TransportRecord: Encodable {
    var wellKnown: TransportFacts
    var root: TransportFacts?
    var cdn: TransportFacts?
    var plainUserAgent: TransportFacts?
    var deviceLocation: String?

    init(_ check: DomainCheck) {
        func stripped(_ facts: TransportFacts) -> TransportFacts {
            var copy = facts
            copy.body = []
            return copy
        }
        wellKnown = stripped(check.wellKnown)
        root = check.root.map(stripped)
        cdn = check.cdn.map(stripped)
        plainUserAgent = check.plainUserAgent.map(stripped)
        deviceLocation = check.report.deviceLocation?.rawValue
    }
}
