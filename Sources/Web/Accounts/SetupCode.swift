/// The one-time code that guards first-run setup, as Grafana and Jenkins do: `serve` prints it in its
/// log, so only someone who can read the server's log creates the first admin, not whoever reaches
/// the page first (a web page can reach a local install through DNS rebinding).
public struct SetupCode: Sendable, Equatable {
    public let value: String

    /// 16 characters from an alphabet without look-alikes (about 80 bits), shown in groups of four.
    public static func generate() -> SetupCode {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        let chars = Crypto.randomBytes(16).map { alphabet[Int($0) % alphabet.count] }
        let groups = stride(from: 0, to: chars.count, by: 4).map { String(chars[$0..<$0 + 4]) }
        return SetupCode(value: groups.joined(separator: "-"))
    }

    public init(value: String) { self.value = value }

    /// Typed as shown or not: case, spaces and hyphens do not matter.
    public func matches(_ typed: String?) -> Bool {
        guard let typed else { return false }
        return Crypto.constantTimeEqual(Array(Self.normalised(typed).utf8), Array(Self.normalised(value).utf8))
    }

    static func normalised(_ s: String) -> String {
        String(s.uppercased().filter { $0 != "-" && $0 != " " })
    }
}
