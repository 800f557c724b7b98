/// A channel setting as the file wrote it (`template`, with `${NAME}` environment references) and
/// as it is used (`value`, the references replaced). Only the template is ever written back, so a
/// secret that came from the environment stays out of exports, plans and logs.
///
/// `${NAME}` takes the variable NAME (letters, digits, underscores; not starting with a digit);
/// `$${` writes a literal `${`. Any other `$` is literal.
public struct ConfigText: Sendable, Hashable {
    public var template: String
    public var value: String
    /// The variables the template names, in order of appearance.
    public var references: [String]

    /// A value written as it is (no references).
    public init(literal: String) {
        template = literal.replacingOccurrences(of: "${", with: "$${")
        value = literal
        references = []
    }

    /// A template for writing only (export): its value is not known here.
    public init(template: String) {
        self.template = template
        value = ""
        references = (try? Self.scan(template, environment: nil).references) ?? []
    }

    /// Resolves a template against the environment. Throws a message for a malformed reference or
    /// a variable that is unset or empty (an empty secret is always a mistake, and silently sending
    /// to "" would hide it).
    public init(resolving template: String, environment: [String: String]) throws(ConfigTextError) {
        let scanned = try Self.scan(template, environment: environment)
        self.template = template
        value = scanned.value
        references = scanned.references
    }

    /// The variables a whole file's `${NAME}` references name, each once, in order of appearance; a
    /// `$${` literal names none and a malformed reference is skipped (the reader reports it). What
    /// `apply --server` sends of its environment, so the server resolves the file as a local apply would.
    public static func referencedNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            let after = rest[dollar...].dropFirst()
            if after.hasPrefix("${") {
                rest = after.dropFirst(2)
            } else if after.hasPrefix("{"), let close = after.firstIndex(of: "}") {
                let name = String(after.dropFirst()[..<close])
                if isVariableName(name), !names.contains(name) { names.append(name) }
                rest = after[close...].dropFirst()
            } else {
                rest = after
            }
        }
        return names
    }

    /// Whether the value came (in part) from the environment.
    public var isReference: Bool { !references.isEmpty }

    private static func scan(_ template: String, environment: [String: String]?) throws(ConfigTextError)
        -> (value: String, references: [String]) {
        var value = ""
        var references: [String] = []
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            value += rest[..<dollar]
            let after = rest[dollar...].dropFirst()
            if after.hasPrefix("${") {           // $${ → a literal ${
                value += "${"
                rest = after.dropFirst(2)
            } else if after.hasPrefix("{") {
                let body = after.dropFirst()
                guard let close = body.firstIndex(of: "}") else {
                    throw .malformed("\"${\" has no closing \"}\"; write ${NAME}, or $${ for a literal ${")
                }
                let name = String(body[..<close])
                guard isVariableName(name) else {
                    throw .malformed("\"${\(name)}\" is not an environment variable name (letters, digits and _, not starting with a digit)")
                }
                references.append(name)
                if let environment {
                    guard let v = environment[name] else { throw .unset(name) }
                    guard !v.isEmpty else { throw .empty(name) }
                    value += v
                }
                rest = body[close...].dropFirst()
            } else {
                value += "$"
                rest = after
            }
        }
        value += rest
        return (value, references)
    }

    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}

public enum ConfigTextError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case unset(String)
    case empty(String)

    public var description: String {
        switch self {
        case .malformed(let message): message
        case .unset(let name): "the environment variable \(name) is not set"
        case .empty(let name): "the environment variable \(name) is empty"
        }
    }
}
