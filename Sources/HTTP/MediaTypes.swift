/// `Content-Type` by file extension for static files. Text types say UTF-8 explicitly, so the
/// browser never sniffs (we also send `nosniff`).
enum MediaTypes {
    static func forPath(_ path: String) -> String {
        guard let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")),
              !path[dot...].contains("/") else { return fallback }
        let ext = path[path.index(after: dot)...].lowercased()
        return table[ext] ?? fallback
    }

    static let fallback = "application/octet-stream"

    static let table: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8",
        "csv": "text/csv; charset=utf-8",
        "xml": "application/xml",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/vnd.microsoft.icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
        "pdf": "application/pdf",
        "wasm": "application/wasm",
    ]
}
