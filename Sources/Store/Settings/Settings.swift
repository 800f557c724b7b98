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
