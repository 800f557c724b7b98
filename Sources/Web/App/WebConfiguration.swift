/// How the dashboard behaves in this deployment.
public struct WebConfiguration: Sendable {
    /// Mark cookies `Secure` even when the request itself arrived over plain HTTP (a TLS-terminating
    /// proxy in front). Requests that arrive over TLS always get `Secure` cookies.
    public var secureCookies: Bool
    /// Trust `X-Forwarded-Proto: https` from the proxy in front.
    public var trustForwardedProto: Bool
    /// Password hashing cost; tests lower it, production keeps libsodium's interactive profile.
    public var passwordHasher: PasswordHasher
    /// Hosts that resolve to loopback or private addresses may be registered. Only the test fleet
    /// sets this; production never does (the crawler would refuse them anyway).
    public var allowPrivateAddresses: Bool
    /// Resolve hosts when they are registered so a private address is refused with a reason.
    public var resolveOnRegister: Bool

    public init(secureCookies: Bool = false, trustForwardedProto: Bool = false, passwordHasher: PasswordHasher = .interactive,
                allowPrivateAddresses: Bool = false, resolveOnRegister: Bool = true) {
        self.secureCookies = secureCookies
        self.trustForwardedProto = trustForwardedProto
        self.passwordHasher = passwordHasher
        self.allowPrivateAddresses = allowPrivateAddresses
        self.resolveOnRegister = resolveOnRegister
    }
}
