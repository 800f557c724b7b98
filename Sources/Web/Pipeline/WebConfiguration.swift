import Notify
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
    /// How long a rendered overview may be shown again while nothing changed (changes themselves
    /// show at once, see `ChangeFeed`): bounds how old its relative times ("3 min ago") can be.
    public var overviewCacheLifetime: Duration
    /// How long a session lookup may be reused while no session or user changed (a backstop: changes
    /// themselves end cached sessions at once, see `ChangeFeed`; expiry is checked on every request).
    public var sessionCacheLifetime: Duration
    /// The first-run setup code; nil: a new random one each start, which `serve` prints in its log.
    public var setupCode: SetupCode?
    /// Host names besides loopback names and IP literals that first-run setup answers under
    /// (`AASA_MONITOR_ALLOWED_HOSTS`); the host of `baseURL` is allowed too.
    public var allowedHosts: [String] = []
    /// The dashboard's address as people open it (`AASA_MONITOR_BASE_URL`); the stored setting otherwise.
    public var baseURL: String?
    /// When set, /metrics answers only `Authorization: Bearer <this>`; off (open, as Prometheus expects) by default.
    public var metricsToken: String?
    /// Where `serve` bound the dashboard (set once listening): links in test notifications fall back
    /// to it when no address is configured.
    public var listeningAddress = ListeningAddress()

    public init(secureCookies: Bool = false, trustForwardedProto: Bool = false, passwordHasher: PasswordHasher = .interactive,
                allowPrivateAddresses: Bool = false, resolveOnRegister: Bool = true, overviewCacheLifetime: Duration = .seconds(1),
                sessionCacheLifetime: Duration = .seconds(5)) {
        self.secureCookies = secureCookies
        self.trustForwardedProto = trustForwardedProto
        self.passwordHasher = passwordHasher
        self.allowPrivateAddresses = allowPrivateAddresses
        self.resolveOnRegister = resolveOnRegister
        self.overviewCacheLifetime = overviewCacheLifetime
        self.sessionCacheLifetime = sessionCacheLifetime
    }
}
