import CPSL
import Vocabulary

/// Debian's libpsl over the full Public Suffix List, ICANN and PRIVATE sections (WebAuthn counts
/// `shopping.github.io` as the label `shopping`, passkeys-spec.md §3.3).
///
/// Which list: `psl_latest(NULL)` — the newer of libpsl's built-in copy and the distribution file
/// (`psl_dist_filename()`, /usr/share/publicsuffix/public_suffix_list.dafsa from Debian's
/// `publicsuffix` package). Chosen over `psl_load_file` of that path because an updated
/// `publicsuffix` package is taken as soon as it is installed, while a host without the package
/// still has the built-in list instead of no list at all. Loaded once per process and never freed:
/// lookups on a loaded context are read-only, so sharing it between threads is safe.
public struct LibPSL: PublicSuffixRules {
    /// The loaded list; nil only when libpsl has neither a built-in list nor the distribution file.
    private static let context: Context? = psl_latest(nil).map(Context.init)

    private final class Context: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
    }

    private let context: Context

    /// Nil when no list could be loaded (a libpsl built without its list and no `publicsuffix` file).
    public init?() {
        guard let context = Self.context else { return nil }
        self.context = context
    }

    public func registrableDomain(of host: String) -> String? {
        // libpsl answers with a pointer into the string it was given, so the copy is made while
        // that string is still alive (a temporary bridged for the call alone would be freed first).
        host.withCString { name in
            psl_registrable_domain(context.pointer, name).map { String(cString: $0) }
        }
    }

    public func isListedPublicSuffix(_ host: String) -> Bool {
        let types = Int32(PSL_TYPE_ICANN | PSL_TYPE_PRIVATE | PSL_TYPE_NO_STAR_RULE)
        return psl_is_public_suffix2(context.pointer, host, types) != 0
    }
}
