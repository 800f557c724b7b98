/// What an email address and a password must look like, shared by the pages and the CLI.
public enum AccountRules {
    public static let minimumPasswordLength = 10

    public static func emailProblem(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
              !email.contains(" ") else {
            return "Enter an email address such as ops@example.com."
        }
        return nil
    }

    public static func passwordProblem(_ password: String) -> String? {
        if password.count < minimumPasswordLength { return "Use at least \(minimumPasswordLength) characters." }
        if password.utf8.count > 1024 { return "Use at most 1024 bytes." }
        return nil
    }
}
