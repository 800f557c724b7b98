/// The LISTEN/NOTIFY channels that migration 0007's triggers notify at the commit of any change,
/// whichever process made it; the dashboard drops its caches when one arrives.
public enum ChangeChannel {
    /// Domains, checks or alerts changed: what the overview shows.
    public static let data = "aasa_data_changed"
    /// Sessions or users changed: what a session lookup returns.
    public static let accounts = "aasa_accounts_changed"
}
