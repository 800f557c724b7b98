import Foundation

/// axe-core, the accessibility engine axe-selenium-python carries, injected into the page the browser
/// shows and run there. `scripts/bootstrap --test` installs it into the .build/pyenv venv; the
/// audit fails (does not skip) when it is missing.
struct AccessibilityAudit {
    struct Missing: Error, CustomStringConvertible { let description: String }

    let source: String

    init() throws {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/pyenv/lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for version in versions.sorted() where version.hasPrefix("python3") {
            let file = root.appendingPathComponent("\(version)/site-packages/axe_selenium_python/node_modules/axe-core/axe.min.js")
            if let text = try? String(contentsOf: file, encoding: .utf8) {
                source = text
                return
            }
        }
        throw Missing(description: "axe-core is missing from \(root.path): run scripts/bootstrap --test (it installs axe-selenium-python)")
    }

    /// Every violation on the page as "rule (impact): target — summary" lines; empty when clean.
    func violations(in browser: HeadlessChromium) throws -> [String] {
        if try browser.run("return typeof window.axe === 'undefined';") as? Bool ?? true {
            try browser.run(source + "\nreturn true;")
        }
        // WebDriver's execute waits for a returned promise to settle.
        let found = try browser.run("""
            return axe.run(document, {resultTypes: ['violations']}).then(function (r) {
              return r.violations.flatMap(function (v) {
                return v.nodes.map(function (n) {
                  return v.id + ' (' + v.impact + '): ' + n.target.join(' ') + ' — ' + (n.failureSummary || '').replace(/\\s+/g, ' ');
                });
              });
            });
            """)
        return found as? [String] ?? ["the audit returned \(String(describing: found))"]
    }
}
