// The fetcher is configured with the outbound policy and resolver it enforces; a client that builds
// a configuration imports Outbound itself (and declares it), nothing is re-exported.
import Outbound

/// Everything a `Fetcher` needs to know, fixed when it is created.
public struct FetchConfiguration: Sendable {
    public var policy: OutboundPolicy
    /// Apple's CDN endpoint; the host is appended: `BASE/HOST`.
    public var cdnBase: String
    /// Whether a check asks Apple's CDN at all (off for crawl benchmarks of the origin alone).
    public var checkCDN: Bool
    /// When the legacy root location is fetched: always (so `locations-disagree` can be seen), or
    /// only when `.well-known` does not serve the file.
    public var rootLocation: RootLocationPolicy
    /// Whether a check repeats the `.well-known` fetch with `plainUserAgent` to spot a firewall
    /// that blocks only Apple.
    public var compareUserAgents: Bool
    /// How Apple's CDN fetcher identifies itself (aasa-spec.md §2.2, F-768759).
    public var appleUserAgent: String
    /// An ordinary browser's User-Agent.
    public var plainUserAgent: String
    /// How Google's fetcher of assetlinks.json identifies itself (assetlinks-spec.md §2.4).
    public var googleUserAgent: String
    /// Android's own client (HttpURLConnection's default form), compared with the browser's answer too.
    public var androidUserAgent: String
    /// Google's Digital Asset Links API (`https://digitalassetlinks.googleapis.com/v1`); nil: not asked.
    /// Tests point it at the fake API of the TLS fleet.
    public var googleDAL: GoogleDALSettings?
    /// A PEM file of extra CA certificates trusted *in addition to* the system roots.
    public var extraCAFile: String?
    /// The system's roots as an OpenSSL hashed directory (`c_rehash`/`update-ca-certificates`).
    /// Preferred: OpenSSL then loads only the root a chain needs, instead of parsing the whole
    /// bundle for every connection (measured: ~30 ms of CPU per transfer on a 140-root bundle).
    public var systemCAPath: String?
    /// The system's root bundle, used (combined with `extraCAFile`) when `systemCAPath` has no hashed links.
    public var systemCAFile: String
    public var connectTo: [ConnectToRule]
    /// Bodies are kept up to this many decoded bytes (well above Apple's 128 KB, so an oversized
    /// file is measured and shown, not swallowed).
    public var bodyLimit: Int
    /// Past this many decoded bytes the transfer is aborted as too large; up to here the true size
    /// is measured even though only `bodyLimit` bytes are kept.
    public var measureLimit: Int
    public var connectTimeout: Duration
    public var totalTimeout: Duration
    /// Concurrent transfers overall, and per remote IP address (politeness towards shared hosts).
    public var maxConnections: Int
    public var maxConnectionsPerAddress: Int
    /// TLS sessions kept for resumption across checks (rounded up to a multiple of 8). A check whose
    /// certificate is not due (`PlatformPlan.certificateDue`) and finds no kept connection resumes its
    /// host's session instead of a full handshake. libcurl 7.88 keeps 8 sessions per share handle, so
    /// the loop holds `tlsSessions / 8` share handles and picks one by host; a session costs a few KB
    /// (its ticket and the peer's certificate chain), so the cache is bounded, not one per domain. 0: none.
    public var tlsSessions: Int = 4096
    /// Threads that run blocking getaddrinfo calls, so the transfer loop never waits on DNS.
    public var resolverThreads: Int
    public var resolver: any HostResolver

    public init(policy: OutboundPolicy = OutboundPolicy(),
                cdnBase: String = "https://app-site-association.cdn-apple.com/a/v1",
                checkCDN: Bool = true,
                rootLocation: RootLocationPolicy = .always,
                compareUserAgents: Bool = true,
                appleUserAgent: String = "AASA-Bot/1.0.0",
                plainUserAgent: String = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
                googleUserAgent: String = "GoogleAssociationService",
                androidUserAgent: String = "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)",
                googleDAL: GoogleDALSettings? = GoogleDALSettings(),
                extraCAFile: String? = nil,
                systemCAPath: String? = "/etc/ssl/certs",
                systemCAFile: String = "/etc/ssl/certs/ca-certificates.crt",
                connectTo: [ConnectToRule] = [],
                bodyLimit: Int = 1 << 20,
                measureLimit: Int = 8 << 20,
                connectTimeout: Duration = .seconds(10),
                totalTimeout: Duration = .seconds(30),
                maxConnections: Int = 256,
                maxConnectionsPerAddress: Int = 8,
                resolverThreads: Int = 8,
                resolver: any HostResolver = SystemResolver()) {
        self.policy = policy
        self.cdnBase = cdnBase
        self.checkCDN = checkCDN
        self.rootLocation = rootLocation
        self.compareUserAgents = compareUserAgents
        self.appleUserAgent = appleUserAgent
        self.plainUserAgent = plainUserAgent
        self.googleUserAgent = googleUserAgent
        self.androidUserAgent = androidUserAgent
        self.googleDAL = googleDAL
        self.extraCAFile = extraCAFile
        self.systemCAPath = systemCAPath
        self.systemCAFile = systemCAFile
        self.connectTo = connectTo
        self.bodyLimit = bodyLimit
        self.measureLimit = measureLimit
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.resolverThreads = resolverThreads
        self.resolver = resolver
    }
}

public enum RootLocationPolicy: String, Hashable, Sendable {
    case always
    case whenWellKnownFails = "when-well-known-fails"
}

/// Where Google's Digital Asset Links API is, and the optional API key (Android's docs call it without one).
public struct GoogleDALSettings: Hashable, Sendable {
    public static let defaultBase = "https://digitalassetlinks.googleapis.com/v1"
    /// `--google-dal-base`, `AASA_MONITOR_GOOGLE_DAL_BASE`.
    public var base: String
    /// `AASA_MONITOR_GOOGLE_API_KEY`: sent as `key=`; never logged or stored.
    public var apiKey: String?

    public init(base: String = GoogleDALSettings.defaultBase, apiKey: String? = nil) {
        self.base = base
        self.apiKey = apiKey
    }
}
