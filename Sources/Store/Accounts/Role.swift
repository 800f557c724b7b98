/// What a signed-in user may do. Read-only users see everything an admin sees but every
/// state-changing route refuses them.
public enum Role: String, Sendable, Codable, CaseIterable, SQLDecodable, SQLEncodable {
    case admin
    case readOnly = "viewer"

    public var canChange: Bool { self == .admin }
    public var label: String { self == .admin ? "Admin" : "Read-only" }
}
