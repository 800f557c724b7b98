extension SettingsStore {
    public func setting(_ key: String) throws -> String? {
        try firstRow("SELECT value FROM settings WHERE key = $1", key)?.decode("value")
    }

    public func setSetting(_ key: String, _ value: String) throws {
        try execute("""
            INSERT INTO settings (key, value) VALUES ($1, $2)
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
            """, key, value)
    }
}

extension Connection {
    /// Serialises config applies (`aasa-monitor apply`, `serve --config`) across processes: two
    /// at once would each plan against a state the other is changing. Held until the transaction ends.
    public func lockConfigApply() throws {
        _ = try rows("SELECT pg_advisory_xact_lock(hashtext('aasa-monitor config apply'))")
    }
}
