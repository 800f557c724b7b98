import Glibc
import TextEncoding

/// Serves regular files below one directory for GET and HEAD, with validators (ETag,
/// Last-Modified), conditional 304s and `Cache-Control`. Small files are kept in memory with their
/// headers built once and re-checked with one `stat` at most once a second, so a hot asset costs
/// a dictionary lookup. Paths with `..`, encoded slashes or NUL are refused, and the resolved
/// path must stay inside the directory (symlinks out of it are not followed).
///
/// Not thread-safe: each event loop owns one.
final class StaticFiles {
    enum Outcome {
        /// Not a file here: let the responder handle the request.
        case notStatic
        case respond(HTTPResponse)
        /// Too large to cache: read it on the worker pool.
        case offload(@Sendable (HTTPRequest) -> HTTPResponse)
    }

    private struct File {
        var path: String
        var body: [UInt8]?          // nil when larger than the cache limit
        var headers: HTTPHeaders    // Content-Type, ETag, Last-Modified, Cache-Control
        var etag: String
        var modified: Int
        var size: Int
        var inode: UInt64
        var modifiedNanoseconds: Int
        var checkedAt: UInt64
    }

    private enum Entry {
        case file(File)
        case missing(checkedAt: UInt64)
    }

    private let root: String
    private let prefix: String
    private let cacheControl: String
    private let maxCachedBytes: Int
    private var entries: [String: Entry] = [:]
    private static let revalidateAfter: UInt64 = 1_000_000_000
    private static let maxEntries = 4096

    /// nil when `directory` does not exist.
    init?(directory: String, urlPrefix: String, cacheControl: String, maxCachedBytes: Int) {
        guard let resolved = StaticFiles.realPath(directory) else { return nil }
        root = resolved
        prefix = urlPrefix.hasSuffix("/") ? urlPrefix : urlPrefix + "/"
        self.cacheControl = cacheControl
        self.maxCachedBytes = maxCachedBytes
    }

    func handle(_ request: HTTPRequest, now: UInt64) -> Outcome {
        guard request.method == .get || request.method == .head, request.path.hasPrefix(prefix) else { return .notStatic }
        let key = request.path
        /// Not a file (any more): remembered as missing for a second, and left to the other routes.
        func missing() -> Outcome {
            remember(key, .missing(checkedAt: now))
            return .notStatic
        }
        var file: File
        switch entries[key] {
        case .file(let cached) where now &- cached.checkedAt < StaticFiles.revalidateAfter:
            file = cached
        case .missing(let checkedAt) where now &- checkedAt < StaticFiles.revalidateAfter:
            return .notStatic
        case .file(let cached):
            guard let fresh = revalidate(cached, now: now) else { return missing() }
            file = fresh
            remember(key, .file(fresh))
        case nil, .missing:
            switch locate(request.path) {
            case .refused: return .respond(.status(.badRequest))
            case .missing: return missing()
            case .found(let path):
                guard let loaded = load(path, now: now) else { return missing() }
                file = loaded
                remember(key, .file(loaded))
            }
        }
        if isNotModified(request, file) {
            return .respond(HTTPResponse(status: .notModified, headers: file.headers))
        }
        if let body = file.body {
            return .respond(HTTPResponse(status: .ok, headers: file.headers, body: body))
        }
        let path = file.path
        let headers = file.headers
        return .offload { _ in
            // Read in full even for HEAD: Content-Length comes from the body, which the server
            // then leaves out.
            guard let body = StaticFiles.readFile(path, limit: Int.max) else { return .status(.notFound) }
            return HTTPResponse(status: .ok, headers: headers, body: body)
        }
    }

    private func remember(_ key: String, _ entry: Entry) {
        if entries.count >= StaticFiles.maxEntries && entries[key] == nil {
            // Bounded: a client probing random paths must not grow the cache without limit.
            entries.removeAll(keepingCapacity: true)
        }
        entries[key] = entry
    }

    private func isNotModified(_ request: HTTPRequest, _ file: File) -> Bool {
        if let candidates = request.headers["If-None-Match"] {
            for tag in candidates.split(separator: ",") {
                var t = tag.trimmingSpaces()
                if t == "*" { return true }
                if t.hasPrefix("W/") { t = t.dropFirst(2) }
                if t == file.etag[...] { return true }
            }
            return false   // If-None-Match takes precedence over If-Modified-Since (RFC 9110 §13.2.2)
        }
        if let since = request.headers["If-Modified-Since"], let date = HTTPDate.parse(since) {
            return file.modified <= date
        }
        return false
    }

    enum Location: Equatable {
        case found(String)
        case missing
        case refused
    }

    /// Maps a URL path to a file path below the root, refusing anything that could climb out.
    func locate(_ urlPath: String) -> Location {
        let relative = urlPath.dropFirst(prefix.count)
        var segments: [String] = []
        for raw in relative.split(separator: "/", omittingEmptySubsequences: true) {
            let segment = PercentDecoding.decode(raw)
            if segment == ".." || segment.contains("/") || segment.contains("\0") || segment.contains("\\") {
                return .refused
            }
            // Dotfiles (.git, .env) are never served, nor "." segments.
            if segment.hasPrefix(".") { return .missing }
            segments.append(segment)
        }
        guard !segments.isEmpty else { return .missing }
        let candidate = root + "/" + segments.joined(separator: "/")
        guard let resolved = StaticFiles.realPath(candidate) else { return .missing }
        guard resolved.hasPrefix(root + "/") else { return .refused }
        return .found(resolved)
    }

    private func load(_ path: String, now: UInt64) -> File? {
        guard let info = StaticFiles.status(path) else { return nil }
        var body: [UInt8]?
        if info.size <= maxCachedBytes {
            guard let bytes = StaticFiles.readFile(path, limit: maxCachedBytes) else { return nil }
            body = bytes
        }
        let etag = "\"\(String(info.size, radix: 16))-\(String(info.modifiedNanoseconds, radix: 16))\""
        let headers: HTTPHeaders = [
            "Content-Type": MediaTypes.forPath(path),
            "ETag": etag,
            "Last-Modified": HTTPDate.string(epochSeconds: info.modified),
            "Cache-Control": cacheControl,
        ]
        return File(path: path, body: body, headers: headers, etag: etag, modified: info.modified,
                    size: body?.count ?? info.size, inode: info.inode,
                    modifiedNanoseconds: info.modifiedNanoseconds, checkedAt: now)
    }

    private func revalidate(_ file: File, now: UInt64) -> File? {
        guard let info = StaticFiles.status(file.path) else { return nil }
        if info.size == file.size && info.inode == file.inode && info.modifiedNanoseconds == file.modifiedNanoseconds {
            var same = file
            same.checkedAt = now
            return same
        }
        return load(file.path, now: now)
    }

    private struct FileInfo {
        var size: Int
        var modified: Int
        var modifiedNanoseconds: Int
        var inode: UInt64
    }

    /// Only regular files count; directories and devices are "missing".
    private static func status(_ path: String) -> FileInfo? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let seconds = Int(st.st_mtim.tv_sec)
        return FileInfo(size: Int(st.st_size), modified: seconds,
                        modifiedNanoseconds: seconds &* 1_000_000_000 &+ Int(st.st_mtim.tv_nsec),
                        inode: UInt64(st.st_ino))
    }

    static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return out }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { return nil }
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return s
    }
}
