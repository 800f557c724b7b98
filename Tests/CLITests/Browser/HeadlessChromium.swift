import Foundation
import Glibc
import TestSupport

/// Debian's headless Chromium driven through chromedriver over the W3C WebDriver protocol.
///
/// Synchronous by design: every call blocks the calling thread, never a cooperative-pool task.
/// chromedriver listens on a port it picks itself (`--port=0`); Chromium gets a private profile
/// directory, and `quit()` (also run on deinit) ends the session, chromedriver, and any Chromium
/// process still using that profile, then removes it.
final class HeadlessChromium {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let chromedriverPath = "/usr/bin/chromedriver"
    static let chromiumPath = "/usr/bin/chromium"

    let screenshotDirectory: URL
    private let scratch: URL
    private let profile: URL
    private let driver = Process()
    /// Port 0 until chromedriver says where it listens.
    private var client = LoopbackJSONClient(port: 0)
    private var session = ""
    private var stopped = false

    /// Fails (does not skip) when Chromium is missing: the suite's promise includes the browser tests.
    init(screenshotDirectory: URL, windowWidth: Int = 1280, windowHeight: Int = 900,
         chromiumPath: String = HeadlessChromium.chromiumPath, chromedriverPath: String = HeadlessChromium.chromedriverPath) throws {
        for (path, package) in [(chromiumPath, "chromium"), (chromedriverPath, "chromium-driver")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            throw Failure(description: "\(path) is missing: the browser tests need Debian's \(package); "
                + "run scripts/bootstrap --test (it installs chromium and chromium-driver)")
        }
        self.screenshotDirectory = screenshotDirectory
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-chromium-\(UUID().uuidString)")
        profile = scratch.appendingPathComponent("profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let log = scratch.appendingPathComponent("chromedriver.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)

        driver.executableURL = URL(fileURLWithPath: chromedriverPath)
        driver.arguments = ["--port=0"]
        driver.standardInput = FileHandle.nullDevice
        // A file, not a pipe: nothing can block on a full pipe.
        let logHandle = try FileHandle(forWritingTo: log)
        driver.standardOutput = logHandle
        driver.standardError = logHandle
        do {
            try driver.run()
            try? logHandle.close()
            client = LoopbackJSONClient(port: try Self.waitForPort(log: log, driver: driver))
            try startSession(width: windowWidth, height: windowHeight, chromiumPath: chromiumPath)
        } catch {
            try? logHandle.close()
            quit()
            throw error
        }
    }

    deinit { quit() }

    /// chromedriver prints "ChromeDriver was started successfully on port N." once it listens.
    private static func waitForPort(log: URL, driver: Process) throws -> Int {
        var port: Int?
        let started = waitUntil(timeout: .seconds(60), poll: .milliseconds(50)) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "started successfully on port ") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            return port != nil || !driver.isRunning
        }
        guard started, let port else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failure(description: "chromedriver did not start listening within 60 s:\n\(text)")
        }
        return port
    }

    private func startSession(width: Int, height: Int, chromiumPath: String) throws {
        var arguments = ["--headless=new", "--disable-gpu", "--window-size=\(width),\(height)", "--hide-scrollbars",
                         "--user-data-dir=\(profile.path)", "--no-first-run", "--no-default-browser-check",
                         "--disable-extensions", "--disable-dev-shm-usage", "--force-device-scale-factor=1"]
        // Chromium's sandbox needs user namespaces that root in a container does not get.
        if getuid() == 0 { arguments.append("--no-sandbox") }
        let capabilities: [String: Any] = [
            "browserName": "chrome",
            "goog:chromeOptions": ["binary": chromiumPath, "args": arguments],
            "timeouts": ["pageLoad": 60_000, "script": 30_000, "implicit": 0],
        ]
        let value = try command("POST", "/session", ["capabilities": ["alwaysMatch": capabilities]], timeout: .seconds(120))
        guard let id = (value as? [String: Any])?["sessionId"] as? String else {
            throw Failure(description: "chromedriver gave no session: \(String(describing: value))")
        }
        session = id
    }

    /// One WebDriver command; WebDriver errors become a `Failure` naming the command.
    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: Duration = .seconds(60)) throws -> Any? {
        let (status, json) = try client.send(method, path, body: body ?? (method == "POST" ? [:] : nil), timeout: timeout)
        if let value = json["value"] as? [String: Any], let error = value["error"] as? String {
            let message = (value["message"] as? String).map { String($0.prefix(500)) } ?? ""
            throw Failure(description: "WebDriver \(method) \(path) → \(status) \(error): \(message)")
        }
        guard (200..<300).contains(status) else { throw Failure(description: "WebDriver \(method) \(path) → HTTP \(status)") }
        return json["value"]
    }

    @discardableResult
    private func sessionCommand(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
        try command(method, "/session/\(session)\(path)", body)
    }

    // MARK: - Pages

    func go(_ url: String) throws { try sessionCommand("POST", "/url", ["url": url]) }
    var currentURL: String { get throws { try sessionCommand("GET", "/url") as? String ?? "" } }
    var source: String { get throws { try sessionCommand("GET", "/source") as? String ?? "" } }
    var title: String { get throws { try sessionCommand("GET", "/title") as? String ?? "" } }

    /// Forgets every cookie of the current site: the next page is a stranger's (a signed-out session).
    func deleteCookies() throws { try sessionCommand("DELETE", "/cookie") }

    /// Makes `prefers-color-scheme` answer `scheme` ("light" or "dark") through Chromium's DevTools
    /// protocol, which chromedriver relays; it holds for every later page of this session.
    func emulateColorScheme(_ scheme: String) throws {
        try sessionCommand("POST", "/goog/cdp/execute", ["cmd": "Emulation.setEmulatedMedia",
                                                         "params": ["features": [["name": "prefers-color-scheme", "value": scheme]]]])
    }

    /// A phone's screen: a `width`×`height` CSS-pixel viewport with a mobile browser's behaviour (the
    /// page's viewport meta tag is honoured), through the DevTools protocol. Headless Chromium's
    /// window is never narrower than 500 px, so `--window-size` cannot give a phone's width.
    func emulatePhone(width: Int, height: Int) throws {
        try sessionCommand("POST", "/goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride",
                                                         "params": ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": true]])
    }

    /// Runs `script` in the page (its `return` value comes back).
    @discardableResult
    func run(_ script: String, _ arguments: [Any] = []) throws -> Any? {
        try sessionCommand("POST", "/execute/sync", ["script": script, "args": arguments])
    }

    // MARK: - Elements

    func element(_ css: String) throws -> String {
        let value = try sessionCommand("POST", "/element", ["using": "css selector", "value": css])
        guard let id = (value as? [String: Any])?.first(where: { $0.key.hasPrefix("element-") })?.value as? String else {
            throw Failure(description: "no element matches \(css)")
        }
        return id
    }

    func elements(_ css: String) throws -> [String] {
        let value = try sessionCommand("POST", "/elements", ["using": "css selector", "value": css]) as? [[String: Any]] ?? []
        return value.compactMap { $0.first(where: { $0.key.hasPrefix("element-") })?.value as? String }
    }

    func exists(_ css: String) throws -> Bool { try !elements(css).isEmpty }

    /// Replaces the field's content with `text`, as a user would by selecting all and typing.
    func fill(_ css: String, _ text: String) throws {
        let id = try element(css)
        try sessionCommand("POST", "/element/\(id)/clear")
        try sessionCommand("POST", "/element/\(id)/value", ["text": text])
    }

    /// Chooses a file in an `<input type=file>`, as a person would in the file dialog.
    func upload(_ css: String, path: String) throws {
        try sessionCommand("POST", "/element/\(try element(css))/value", ["text": path])
    }

    func click(_ css: String) throws { try sessionCommand("POST", "/element/\(try element(css))/click") }

    func text(_ css: String) throws -> String {
        try sessionCommand("GET", "/element/\(try element(css))/text") as? String ?? ""
    }

    func value(_ css: String) throws -> String {
        try sessionCommand("GET", "/element/\(try element(css))/property/value") as? String ?? ""
    }

    /// Chooses the `<option>` with this value in a `<select>`.
    func select(_ css: String, value: String) throws {
        try click("\(css) option[value='\(value)']")
    }

    /// Polls `condition` until it holds; on timeout the failure carries the page's URL and text.
    func wait(_ what: String, timeout: Duration = .seconds(60), _ condition: () throws -> Bool) throws {
        var lastError: (any Error)?
        let met = waitUntil(timeout: timeout, poll: .milliseconds(200)) {
            do { return try condition() } catch { lastError = error; return false }
        }
        guard met else {
            let url = (try? currentURL) ?? "?"
            let text = (try? self.text("body")) ?? ""
            throw Failure(description: "waited \(timeout) for \(what); at \(url)\(lastError.map { " (last error: \($0))" } ?? ""):\n\(text.prefix(1500))")
        }
    }

    // MARK: - Screenshots

    /// Saves the whole page (the window is grown to the document's height first) as NAME.png.
    @discardableResult
    func screenshot(_ name: String, maxHeight: Int = 5000) throws -> URL {
        let size = try run("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight, window.innerWidth, window.innerHeight, window.outerWidth, window.outerHeight];") as? [Int] ?? []
        var restore: [String: Any]?
        if size.count == 6, size[1] > size[3] {
            // outer - inner is the window chrome (none when headless, but keep the arithmetic honest).
            restore = ["width": size[4], "height": size[5]]
            try sessionCommand("POST", "/window/rect", ["width": size[4], "height": min(size[1], maxHeight) + size[5] - size[3]])
        }
        let encoded = try sessionCommand("GET", "/screenshot") as? String ?? ""
        if let restore { try sessionCommand("POST", "/window/rect", restore) }
        guard let png = Data(base64Encoded: encoded), png.count > 8 else { throw Failure(description: "no screenshot for \(name)") }
        try FileManager.default.createDirectory(at: screenshotDirectory, withIntermediateDirectories: true)
        let file = screenshotDirectory.appendingPathComponent(name + ".png")
        try png.write(to: file)
        return file
    }

    // MARK: - Teardown

    /// Ends the session and every process this browser started; idempotent, never blocks unbounded.
    func quit() {
        guard !stopped else { return }
        stopped = true
        if !session.isEmpty, client.port != 0 {
            _ = try? client.send("DELETE", "/session/\(session)", timeout: .seconds(15))
        }
        if driver.isRunning {
            kill(driver.processIdentifier, SIGTERM)
            if !waitUntil(timeout: .seconds(10), { !driver.isRunning }) {
                kill(driver.processIdentifier, SIGKILL)
                _ = waitUntil(timeout: .seconds(10)) { !driver.isRunning }
            }
        }
        // Chromium processes chromedriver could not end (it was killed, or the session hung) are
        // found by the profile directory only this browser uses, and killed by their ids.
        for pid in ProcessTable.processes(withArgumentContaining: "--user-data-dir=\(profile.path)") {
            kill(pid, SIGKILL)
        }
        _ = waitUntil(timeout: .seconds(10)) {
            ProcessTable.processes(withArgumentContaining: "--user-data-dir=\(profile.path)").isEmpty
        }
        try? FileManager.default.removeItem(at: scratch)
    }
}
