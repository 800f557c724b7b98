import Foundation
import Testing

/// README.md, SECURITY.md and docs/*.md are what a user reads first: every relative link must lead
/// to a file (and a heading) that exists, and every `aasa-monitor` command and option, script,
/// benchmark and product they show must be one the repository and the built binary have.
@Suite struct DocsTests {
    struct Document {
        var name: String
        var url: URL
        var references: MarkdownReferences
    }

    static func documents() throws -> [Document] {
        let root = ExternalTool.root
        let docs = root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        let urls = [root.appendingPathComponent("README.md"), root.appendingPathComponent("SECURITY.md")]
            + names.map { docs.appendingPathComponent($0) }
        return try urls.map { url in
            let name = String(url.path.dropFirst(root.path.count + 1))
            return Document(name: name, url: url, references: MarkdownReferences(markdown: try String(contentsOf: url, encoding: .utf8)))
        }
    }

    @Test func everyRelativeLinkLeadsToAFileAndItsHeading() throws {
        let documents = try Self.documents()
        var anchors: [String: [String]] = Dictionary(uniqueKeysWithValues: documents.map { ($0.url.standardized.path, $0.references.anchors) })
        var checked = 0
        for document in documents {
            for link in document.references.links {
                let target = link.path.isEmpty
                    ? document.url.standardized
                    : document.url.deletingLastPathComponent().appendingPathComponent(link.path).standardized
                checked += 1
                guard FileManager.default.fileExists(atPath: target.path) else {
                    Issue.record("\(document.name):\(link.line): the link to \(link.path) leads to no file")
                    continue
                }
                guard let anchor = link.anchor, target.pathExtension == "md" else { continue }
                if anchors[target.path] == nil {
                    anchors[target.path] = MarkdownReferences(markdown: try String(contentsOf: target, encoding: .utf8)).anchors
                }
                #expect(anchors[target.path, default: []].contains(anchor),
                        "\(document.name):\(link.line): \(link.path.isEmpty ? "this page" : link.path) has no heading #\(anchor)")
            }
        }
        // The reader must find the links at all: the README's table of contents alone has seven.
        #expect(checked > 50)
    }

    @Test func everyCommandAndOptionTheDocsShowIsOneTheBinaryHas() throws {
        var help = CommandHelp()
        var checked = 0
        for document in try Self.documents() {
            for command in document.references.commands {
                let place = "\(document.name):\(command.line): \(command.text)"
                var path: [String] = []
                for word in command.words {
                    if word == "help" { path = []; break }  // `aasa-monitor help COMMAND`: ArgumentParser's own
                    let subcommands = try help.subcommands(of: path)
                    if subcommands.isEmpty { break }  // a leaf: the rest are its arguments
                    guard subcommands.contains(word) else {
                        Issue.record("\(place): aasa-monitor \((path + [word]).joined(separator: " ")) is not a command (it has \(subcommands.sorted()))")
                        path = []
                        break
                    }
                    path.append(word)
                }
                guard !path.isEmpty || command.words.isEmpty else { continue }
                let options = try help.options(of: path)
                for option in command.options {
                    #expect(options.contains(option), "\(place): aasa-monitor \(path.joined(separator: " ")) has no option \(option)")
                }
                checked += 1
            }
        }
        #expect(checked > 40)
    }

    @Test func everyScriptBenchmarkAndProductTheDocsNameExists() throws {
        let root = ExternalTool.root
        let package = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var paths = 0
        for document in try Self.documents() {
            for mention in document.references.paths {
                paths += 1
                #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(mention.path).path),
                        "\(document.name):\(mention.line): \(mention.path) does not exist")
            }
            for product in document.references.products {
                #expect(package.contains("executableTarget(name: \"\(product.path)\"") || package.contains(".executable(name: \"\(product.path)\""),
                        "\(document.name):\(product.line): Package.swift builds no executable \(product.path)")
            }
        }
        #expect(paths > 20)
    }

    /// `--help` is the first thing many read: it names both platforms the product watches.
    @Test func helpNamesBothPlatforms() throws {
        let outcome = try BuiltCommand.run(["--help"])
        #expect(outcome.status == 0)
        // The root command's own abstract, not the subcommands' listed below it.
        let overview = outcome.stdout.components(separatedBy: "USAGE:")[0]
        #expect(overview.contains("apple-app-site-association"))
        #expect(overview.contains("assetlinks.json"))
    }
}

/// The built binary's own account of its commands: `--help-hidden` of each command path, read once.
struct CommandHelp {
    private var texts: [[String]: String] = [:]

    mutating func text(of path: [String]) throws -> String {
        if let known = texts[path] { return known }
        let outcome = try BuiltCommand.run(path + ["--help-hidden"])
        guard outcome.status == 0 else {
            throw BuiltCommand.Failure(description: "aasa-monitor \((path + ["--help-hidden"]).joined(separator: " ")) exited \(outcome.status): \(outcome.output)")
        }
        texts[path] = outcome.stdout
        return outcome.stdout
    }

    /// The names under SUBCOMMANDS (each at two spaces' indent; wrapped abstracts are deeper), and
    /// `help`, which ArgumentParser answers on every command that has subcommands.
    mutating func subcommands(of path: [String]) throws -> Set<String> {
        var names: Set<String> = []
        var inSection = false
        for line in try text(of: path).components(separatedBy: "\n") {
            if line.hasPrefix("SUBCOMMANDS:") { inSection = true; continue }
            guard inSection else { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            if let match = line.prefixMatch(of: /\s\s([a-z][a-z0-9-]*)(?:\s|$)/) { names.insert(String(match.1)) }
        }
        if !names.isEmpty { names.insert("help") }
        return names
    }

    mutating func options(of path: [String]) throws -> Set<String> {
        Set(try text(of: path).matches(of: /(?:^|[^A-Za-z0-9-])(--[a-z][a-z0-9-]*)/).map { String($0.1) })
    }
}
