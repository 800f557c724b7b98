import Foundation

/// What a Markdown document refers to, read from its text alone: its relative links, the anchors its
/// headings make, the `aasa-monitor` command lines and the repository paths its code shows. DocsTests
/// checks each against the repository and the built binary.
struct MarkdownReferences {
    struct Link: Equatable {
        /// The file part, relative to the document's directory; empty for a link within the document.
        var path: String
        /// The fragment without `#`, or nil.
        var anchor: String?
        var line: Int
    }

    struct CommandMention: Equatable {
        /// The words after `aasa-monitor` up to the first that is not a lower-case word: the
        /// subcommand path as written (`["app", "import"]`, `["check"]`).
        var words: [String]
        /// Every `--option` on the line, in order.
        var options: [String]
        var line: Int
        var text: String
    }

    struct PathMention: Equatable {
        var path: String
        var line: Int
    }

    var links: [Link] = []
    var anchors: [String] = []
    var commands: [CommandMention] = []
    var paths: [PathMention] = []
    /// Products named by `--product NAME` and `.build/release/NAME`.
    var products: [PathMention] = []

    /// Top-level folders whose files the docs name in code and that must exist.
    static let checkedFolders = ["scripts", "Benchmarks", "docs", "Tests", ".ci"]

    init(markdown: String) {
        var inFence = false
        var fenced: [(text: String, line: Int)] = []
        var headingCounts: [String: Int] = [:]
        for (index, rawLine) in markdown.components(separatedBy: "\n").enumerated() {
            let number = index + 1
            let trimmed = rawLine.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if inFence { readCode(lines: fenced) }
                fenced = []
                inFence.toggle()
                continue
            }
            if inFence {
                fenced.append((rawLine, number))
                continue
            }
            if let heading = Self.headingText(rawLine) {
                let slug = Self.slug(heading)
                let seen = headingCounts[slug, default: 0]
                headingCounts[slug] = seen + 1
                anchors.append(seen == 0 ? slug : "\(slug)-\(seen)")
            }
            let (prose, spans) = Self.splitInlineCode(rawLine)
            links += Self.links(in: prose, line: number)
            for span in spans { readCode(lines: [(span, number)]) }
        }
    }

    // MARK: - Headings and anchors

    static func headingText(_ line: String) -> String? {
        guard line.hasPrefix("#") else { return nil }
        let hashes = line.prefix(while: { $0 == "#" })
        guard hashes.count <= 6, line.dropFirst(hashes.count).first == " " else { return nil }
        return String(line.dropFirst(hashes.count + 1)).trimmingCharacters(in: .whitespaces)
    }

    /// GitHub's anchor for a heading: lower-cased, every character but letters, marks, digits,
    /// connector punctuation (`_`), spaces and hyphens dropped, spaces turned into hyphens.
    static func slug(_ heading: String) -> String {
        var result = ""
        for scalar in heading.lowercased().unicodeScalars {
            let properties = scalar.properties
            if scalar == " " {
                result.append("-")
            } else if scalar == "-" || properties.isAlphabetic || properties.numericType != nil
                        || properties.generalCategory == .connectorPunctuation
                        || properties.generalCategory == .nonspacingMark {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: - Links

    /// The line with its inline code spans cut out, and the spans' contents.
    static func splitInlineCode(_ line: String) -> (prose: String, spans: [String]) {
        var prose = ""
        var spans: [String] = []
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "`") {
            prose += rest[..<open]
            let ticks = rest[open...].prefix(while: { $0 == "`" })
            let afterOpen = rest[ticks.endIndex...]
            guard let close = afterOpen.range(of: String(ticks)) else {
                prose += rest[open...]
                return (prose, spans)
            }
            spans.append(String(afterOpen[..<close.lowerBound]))
            rest = afterOpen[close.upperBound...]
        }
        prose += rest
        return (prose, spans)
    }

    static func links(in prose: String, line: Int) -> [Link] {
        let markdown = prose.matches(of: /\]\(([^)\s]+)\)/).map { String($0.1) }
        let html = prose.matches(of: /(?:src|href)="([^"]+)"/).map { String($0.1) }
        return (markdown + html).compactMap { target in
            if target.contains("://") || target.hasPrefix("mailto:") { return nil }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0])
            let anchor = parts.count > 1 ? String(parts[1]) : nil
            return Link(path: path, anchor: anchor, line: line)
        }
    }

    // MARK: - Code: commands, paths, products

    private mutating func readCode(lines: [(text: String, line: Int)]) {
        // A command continues on the lines after a trailing backslash, and on following lines that
        // start with an option (a YAML block scalar in a CI example).
        var joined: [(text: String, line: Int)] = []
        for (raw, number) in lines {
            // A table cell escapes its pipes (`apple\|android`); the command means one or the other.
            let text = raw.replacingOccurrences(of: "\\|", with: "/")
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let last = joined.last,
               last.text.hasSuffix("\\") || (trimmed.hasPrefix("--") && last.text.contains("aasa-monitor ")) {
                joined[joined.count - 1].text = String(last.text.dropLast(last.text.hasSuffix("\\") ? 1 : 0)) + " " + trimmed
            } else {
                joined.append((text, number))
            }
        }
        for (text, number) in joined {
            let code = Self.withoutShellComment(text)
            commands += Self.commands(in: code, line: number)
            paths += Self.paths(in: code, line: number)
            products += Self.products(in: code, line: number)
        }
    }

    static func withoutShellComment(_ text: String) -> String {
        guard let hash = text.range(of: " #") else { return text }
        return String(text[..<hash.lowerBound])
    }

    /// Each `aasa-monitor WORD …` in a piece of code (preceded by nothing, a space, `/` or `(`, so
    /// `aasa-monitor.example.yaml` and an image name `aasa-monitor:latest` are not commands).
    static func commands(in code: String, line: Int) -> [CommandMention] {
        let pattern = /(?:^|[\s\/(])aasa-monitor[ \t]+([^;&|]*)/
        return code.matches(of: pattern).map { match in
            let rest = String(match.1)
            var words: [String] = []
            for token in rest.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                guard token.wholeMatch(of: /[a-z][a-z0-9-]*/) != nil else { break }
                words.append(String(token))
            }
            let options = rest.matches(of: /(?:^|[^A-Za-z0-9-])(--[a-z][a-z0-9-]*)/).map { String($0.1) }
            return CommandMention(words: words, options: options, line: line, text: "aasa-monitor " + rest)
        }
    }

    /// Repository paths under the checked folders; placeholders (`NNNN`, `<Target>`, `…`, `*`) are
    /// left out, as is anything after them.
    static func paths(in code: String, line: Int) -> [PathMention] {
        let pattern = /(?:^|[^\w.\/-])((?:scripts|Benchmarks|docs|Tests|\.ci)\/[A-Za-z0-9_.\/-]*[A-Za-z0-9_])/
        return code.matches(of: pattern).compactMap { match in
            let path = String(match.1)
            let end = match.range.upperBound
            if end < code.endIndex, ["<", "…", "*"].contains(code[end]) { return nil }
            if path.contains("NNNN") { return nil }
            return PathMention(path: path, line: line)
        }
    }

    static func products(in code: String, line: Int) -> [PathMention] {
        let named = code.matches(of: /--product[ \t]+([A-Za-z][A-Za-z0-9_-]*)/).map { String($0.1) }
        let built = code.matches(of: /\.build\/release\/([A-Za-z][A-Za-z0-9_-]*)/).map { String($0.1) }
        return (named + built).map { PathMention(path: $0, line: line) }
    }
}
