/// Reads the code tables of docs/findings.md, so each core's agreement test compares its catalogue
/// with the rows of its own section (AASA and assetlinks.json share some codes, e.g. `unknown-key`).
package enum FindingDocsTable {
    /// Code → severity of every `| \`code\` | severity | …` row under the `## ` heading that starts
    /// with `section`, up to the next `## ` heading. A nil section reads the rows of the whole text.
    package static func codes(in markdown: String, section: String? = nil) -> [String: String] {
        var codes: [String: String] = [:]
        var inside = section == nil
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## "), let section {
                inside = line.dropFirst(3).hasPrefix(section)
                continue
            }
            guard inside, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { String($0).trimmingCharacters(in: " ") }
            guard cells.count > 3 else { continue }
            codes[cells[1].trimmingCharacters(in: "`")] = cells[2]
        }
        return codes
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
