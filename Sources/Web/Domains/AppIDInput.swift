/// Checks the `TEAMID.bundle.id` shape of an app ID as a person typed it (aasa-spec.md §4):
/// a 10-character Team ID of upper-case letters and digits, a dot, then a bundle ID of letters,
/// digits, hyphens and dots.
public enum AppIDInput {
    /// The trimmed app ID, or a message saying what is wrong with it.
    public static func validate(_ raw: String) -> Result<String, FieldMessage> {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard let dot = text.firstIndex(of: ".") else {
            return .failure(FieldMessage("\"\(text)\" has no dot: write the Team ID, a dot, then the bundle ID, e.g. ABCDE12345.com.example.app"))
        }
        let team = text[..<dot], bundle = text[text.index(after: dot)...]
        func isTeamID(_ s: String) -> Bool {
            s.count == 10 && s.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        }
        guard isTeamID(String(team)) else {
            if isTeamID(team.uppercased()) {
                return .failure(FieldMessage("The Team ID \"\(team)\" must be upper-case: \(team.uppercased())"))
            }
            return .failure(FieldMessage("The Team ID \"\(team)\" must be 10 upper-case letters and digits, as shown in your Apple Developer account"))
        }
        guard !bundle.isEmpty, !bundle.hasPrefix("."), !bundle.hasSuffix("."), !bundle.contains(".."),
              bundle.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." }) else {
            return .failure(FieldMessage("The bundle ID \"\(bundle)\" may only contain letters, digits, hyphens and dots, e.g. com.example.app"))
        }
        return .success(text)
    }
}

/// A message for one form field or API field.
public struct FieldMessage: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

import Foundation
