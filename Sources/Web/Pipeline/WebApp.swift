import Foundation
import Registry
import Store
import Synchronization

/// The dashboard and its API as one responder: `respond` takes a request and returns a response,
/// blocking on the database as needed (the HTTP server runs it on its worker pool). The work is done
/// by the request path (`Pipeline`): routing, then SetupGate, Authentication, CSRF, CacheInvalidation
/// and ErrorPages, then the route's handler.
public final class WebApp: Sendable {
    public let database: Database
    public let configuration: WebConfiguration
    /// When cached answers go out of date; caches are used only while it is live (`startChangeFeed`).
    public let changes: ChangeFeed
    let services: WebServices
    let pipeline: Pipeline
    private let sessionPurge = Mutex<SessionPurge?>(nil)

    public init(database: Database, configuration: WebConfiguration = WebConfiguration()) {
        let changes = ChangeFeed()
        let services = WebServices(database: database, configuration: configuration, changes: changes)
        self.database = database
        self.configuration = configuration
        self.changes = changes
        self.services = services
        self.pipeline = Pipeline(
            router: WebApp.routes(database: database),
            steps: [SetupGate(setup: services.setup, hosts: HostAllowList(configuration.allowedHosts), baseURL: configuration.baseURL),
                    Authentication(sessions: services.sessions, database: database),
                    CSRF(), CacheInvalidation(changes: changes), ErrorPages()],
            endpoint: { request, state in
                try state.route.handler(RequestContext(
                    request: request, parameters: state.parameters, viewer: state.handlerViewer, form: state.form,
                    now: state.now, requestID: state.requestID, isSecure: state.isSecure,
                    configuration: configuration, services: services))
            },
            isSecure: { request in
                request.isSecure || configuration.secureCookies
                    || (configuration.trustForwardedProto && request.header("x-forwarded-proto") == "https")
            })
    }

    /// Listens for changes made by other processes, so the overview and session lookups can be
    /// cached (`serve` calls this; without it nothing is cached).
    public func startChangeFeed() { changes.start(database: database) }

    public func stopChangeFeed() { changes.stop() }

    /// Deletes expired sessions now and then every `interval` (`serve` calls this), until `stopSessionPurge`.
    public func startSessionPurge(every interval: Duration = .seconds(3600)) {
        sessionPurge.withLock { purge in
            guard purge == nil else { return }
            let started = SessionPurge(sessions: services.sessions, interval: interval)
            started.start()
            purge = started
        }
    }

    public func stopSessionPurge() { sessionPurge.withLock { $0?.stop() } }

    public func respond(_ request: WebRequest) -> WebResponse { pipeline.respond(request) }

    /// The code first-run setup asks for; `serve` prints it while no account exists.
    public var setupCode: SetupCode { services.setupCode }

    /// True until the first account exists (then setup is closed for good).
    public func needsSetup() throws -> Bool { try !services.setup.isSetUp() }
}

/// What handlers share, built once with the app: sessions, the setup state, the login limiter, the
/// overview's cache (all kept current by the change feed) and the domain registry.
final class WebServices: Sendable {
    let sessions: Sessions
    let setup: SetupState
    let limiter = LoginLimiter()
    let changes: ChangeFeed
    /// The overview's content per role and query (everything but the per-user header), valid until
    /// domains, checks or alerts change and at most `overviewCacheLifetime` old.
    let overviewCache: GenerationCache<SharedPage>
    let flashCookie = FlashCookie()
    let setupCode: SetupCode
    let passwordCheck: PasswordCheck
    /// Every change to what is monitored: register, edit, delete, "check now".
    let registry: DomainRegistry
    /// Every change to apps: add, import, edit, delete.
    let appRegistry: AppRegistry

    init(database: Database, configuration: WebConfiguration, changes: ChangeFeed) {
        self.changes = changes
        self.registry = DomainRegistry(store: database, policy: RegistrationPolicy(
            allowPrivateAddresses: configuration.allowPrivateAddresses, resolveOnRegister: configuration.resolveOnRegister))
        self.appRegistry = AppRegistry(store: database, policy: RegistrationPolicy(
            allowPrivateAddresses: configuration.allowPrivateAddresses, resolveOnRegister: configuration.resolveOnRegister))
        self.sessions = Sessions(database: database, changes: changes, cacheLifetime: configuration.sessionCacheLifetime)
        self.setup = SetupState(database: database)
        self.overviewCache = GenerationCache(ttl: configuration.overviewCacheLifetime)
        self.setupCode = configuration.setupCode ?? SetupCode.generate()
        self.passwordCheck = PasswordCheck(hasher: configuration.passwordHasher)
    }
}
