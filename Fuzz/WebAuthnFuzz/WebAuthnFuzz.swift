// libFuzzer target for the WebAuthn core, built by scripts/fuzz against the WebAuthn module with
// libpsl's binding (Sources/PublicSuffixes/LibPSL.swift) compiled in unchanged.
//
// Every input is a /.well-known/webauthn body (seeds: the spec's examples and the failure modes of
// passkeys-spec.md §5). Beyond not crashing: every finding has a message and a catalogued code; the
// browser keeps at most 5 labels; for the first entries, the decision for the entry's own origin
// agrees with the label walk (an entry the browser evaluates and can match is allowed, one past the
// limit is refused unless an earlier entry has the same origin); the same bytes read as
// passkey-endpoints never crash either.

import CIDN2
import Vocabulary
import WebAuthn

/// IDNA for the fuzz build. The product's conversion is Fetch's `LibIDN2`, which pulls in curl and
/// the outbound policy; the fuzz build compiles pure modules only, so this is the same libidn2 call
/// with the same flags (Outbound's `IDNA.ascii`), kept to the one function the core uses.
private struct FuzzIDNA: IDNAConversion, Sendable {
    func toASCII(_ name: String) throws(IDNAFailure) -> String {
        var output: UnsafeMutablePointer<CChar>?
        let flags = Int32(IDN2_NONTRANSITIONAL.rawValue | IDN2_NFC_INPUT.rawValue)
        guard idn2_to_ascii_8z(name, &output, flags) == Int32(IDN2_OK.rawValue), let output else {
            throw IDNAFailure(reason: "libidn2 refused it")
        }
        defer { idn2_free(output) }
        return String(cString: output)
    }

    func toUnicode(_ ascii: String) -> String? { nil }
}

private let rules: DomainRules? = LibPSL().map { DomainRules(idna: FuzzIDNA(), suffixes: $0) }
private let catalogue = Set(WebAuthnFindingCatalog.all.map(\.code) + PasskeyEndpointsFindingCatalog.all.map(\.code))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebAuthn(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let rules else { fatalError("libpsl loaded no Public Suffix List") }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let rpID = try? RelyingPartyID("example.com", rules: rules)
    let report = RelatedOriginsValidator.validate(bytes, rules: rules, rpID: rpID)
    for finding in report.findings {
        if finding.message.isEmpty { fatalError("\(finding.code) without a message") }
        if !catalogue.contains(finding.code) { fatalError("\(finding.code) is not catalogued") }
    }
    if report.walk.window.count > LabelWalk.maxLabels { fatalError("more than \(LabelWalk.maxLabels) labels kept") }
    if let rpID { checkDecisions(report, rpID: rpID, rules: rules) }
    for finding in PasskeyEndpointsReader.read(bytes, rpID: rpID, rules: rules).findings where !catalogue.contains(finding.code) {
        fatalError("\(finding.code) is not catalogued")
    }
    return 0
}

/// The decision for each of the first entries' own origins must agree with the walk.
private func checkDecisions(_ report: RelatedOriginsReport, rpID: RelyingPartyID, rules: DomainRules) {
    let walk = report.walk
    for position in walk.origins.indices.prefix(8) {
        guard let parsed = walk.origins[position].parsed, let origin = parsed.origin, origin.scheme == "https",
              parsed.domain != nil else { continue }
        let decision = RelatedOriginsDecision.decide(rpID: rpID, caller: parsed, reading: report.reading, rules: rules)
        if report.reading.rejection != nil {
            if decision.allowed && decision.outcome != .coveredByRPID { fatalError("a rejected file allowed \(origin)") }
            continue
        }
        let evaluatedEarlier = walk.origins.indices.contains { earlier in
            guard case .counted = walk.statuses[earlier] else { return false }
            return walk.origins[earlier].origin == origin
        }
        switch walk.statuses[position] {
        case .counted:
            if !decision.allowed { fatalError("\(origin) is evaluated but refused: \(decision.reason)") }
        case .beyondLimit:
            if decision.allowed != evaluatedEarlier && decision.outcome != .coveredByRPID {
                fatalError("\(origin) past the limit decided \(decision.outcome)")
            }
        case .skipped:
            break
        }
        if decision.labels.count > LabelWalk.maxLabels { fatalError("a decision held more than \(LabelWalk.maxLabels) labels") }
    }
}
