/// A host name's stable 64-bit hash (FNV-1a over its bytes): the same on every run, process and
/// machine, unlike Swift's seeded `Hasher`. The scheduler places a domain in its interval by it, and
/// the fetcher picks the TLS session cache that keeps a host's session by it.
public enum HostHash {
    public static func fnv1a(_ host: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in host.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
