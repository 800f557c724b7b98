import Fetch
import Outbound

/// Whether a host is resolved when it is registered, so a private address is refused with a
/// reason at once (the crawler would refuse it anyway, at every check).
public struct RegistrationPolicy: Sendable {
    /// Hosts that resolve to loopback or private addresses may be registered. Only the test fleet
    /// sets this; production never does.
    public var allowPrivateAddresses: Bool
    public var resolveOnRegister: Bool

    public init(allowPrivateAddresses: Bool = false, resolveOnRegister: Bool = false) {
        self.allowPrivateAddresses = allowPrivateAddresses
        self.resolveOnRegister = resolveOnRegister
    }

    /// Resolves the name and refuses it when every address is one the crawler may not contact,
    /// naming the address and its range.
    func addressRefusal(_ host: String) -> String? {
        let policy = OutboundPolicy(allowPrivateAddresses: allowPrivateAddresses)
        switch SystemResolver().resolve(host) {
        case .failure(let e):
            return "\(host) does not resolve (\(e.message)); check the spelling, or register it once its DNS is in place."
        case .success(let addresses):
            let refusals = addresses.compactMap { a in policy.refusal(for: a).map { (a, $0) } }
            if let (address, why) = refusals.first, refusals.count == addresses.count {
                return "\(host) resolves to \(address), a \(why) address; the monitor only fetches from public addresses."
            }
            return nil
        }
    }
}
