import Foundation

/// Reads a command's input file, or standard input for `-`, with a cap so a runaway pipe cannot
/// exhaust memory (Apple's limit is 128 KB; the parser's own limit is far above it).
enum InputFile {
    static let limit = 64 << 20

    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String) throws -> [UInt8] {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw ReadError(description: "cannot read \(path): no such file or permission denied")
            }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        var bytes: [UInt8] = []
        while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
            bytes += chunk
            if bytes.count > limit { throw ReadError(description: "\(path) is larger than \(limit >> 20) MB") }
        }
        return bytes
    }
}
