import Foundation
import Testing

/// `pm serve` from the outside (DESIGN.md §16): the real binary, a real
/// HTTP client (Python's), and the board checked with `pm list` after
/// every refusal.
@Suite(.serialized) struct ServeTests {
    /// The harness's own environment, without a faked clock: Python's
    /// timeouts under libfaketime sleep for invalid times. The pm it starts
    /// reads the real clock (these are real-clock tests).
    static let harness: [String: String] = ProcessInfo.processInfo.environment.filter {
        !["LD_PRELOAD", "FAKETIME", "FAKETIME_DONT_FAKE_MONOTONIC", "NO_FAKE_STAT"].contains($0.key)
    }

    static let scripts = PMBinary.packageRoot.appendingPathComponent("Tests/PMEndToEndTests/Fixtures/web")

    /// Where `.ci/run` keeps axe-core (from the wheel PyPI ships it in).
    static let axe = "/var/cache/pm-web-test/axe_playwright_python-0.1.8-py3-none-any.whl"

    /// axe-core's wheel, downloaded from PyPI the first time (npm is out of reach here).
    static func axeIsHere() throws -> Bool {
        if FileManager.default.fileExists(atPath: axe) { return true }
        _ = try runCapturing(
            "/usr/bin/env",
            [
                "python3", "-m", "pip", "download", "-q", "--no-deps", "-d", "/var/cache/pm-web-test",
                "axe-playwright-python==0.1.8",
            ])
        return FileManager.default.fileExists(atPath: axe)
    }

    /// A person at a phone (390×844, touch) and at a desk (1280×800), in
    /// each language: adds, drags to DOING, sets a deadline with the date
    /// picker, undoes, sees a colleague's `pm add` arrive live, resolves a
    /// conflict, filters, deletes after the question; axe-core finds no
    /// violation and no script from a title runs. Screenshots go to
    /// `$PM_SCREENSHOTS` (default /tmp/pm-web-screenshots).
    @Test(arguments: [
        ("en_US", 390, 844), ("fr_FR", 390, 844), ("ko_KR", 390, 844), ("en_US", 1280, 800), ("fr_FR", 1280, 800),
        ("ko_KR", 1280, 800),
    ])
    func aPersonUsesTheBoardInABrowser(language: String, width: Int, height: Int) throws {
        guard try Self.axeIsHere() else {
            let fetch = "python3 -m pip download --no-deps -d /var/cache/pm-web-test axe-playwright-python==0.1.8"
            Issue.record("axe-core is missing at \(Self.axe) and could not be downloaded: \(fetch)")
            return
        }
        let pm = PMBinary()
        let shots = ProcessInfo.processInfo.environment["PM_SCREENSHOTS"] ?? "/tmp/pm-web-screenshots"
        let script = try String(contentsOf: Self.scripts.appendingPathComponent("serve_browser.py"), encoding: .utf8)
        let (status, output) = try runPython(
            script,
            [PMBinary.path, pm.home.path, language, String(width), String(height), shots, Self.axe, Self.scripts.path],
            needs: ["selenium"], environment: Self.harness)
        #expect(status == 0, "\(output)")
        #expect(output.hasSuffix("ALL OK\n"), "\(output)")
    }
}

/// Hostile requests, apart from the browser runs so that the two go side by side.
@Suite struct ServeSecurityTests {
    /// No token, a wrong or spent one, a wrong Host, cross-origin and
    /// CSRF-less writes, XSS titles, a 100 MB body, 10,000 headers, a slow
    /// client, `../` paths, and SIGTERM: each gets its answer, the board
    /// changes only by the writes that were let through.
    @Test func hostileRequestsGetTheirAnswerAndChangeNothing() throws {
        let pm = PMBinary()
        let script = try String(contentsOf: ServeTests.scripts.appendingPathComponent("serve_security.py"), encoding: .utf8)
        let (status, output) = try runPython(
            script, [PMBinary.path, pm.home.path, pm.boardPath], environment: ServeTests.harness)
        #expect(status == 0, "\(output)")
        #expect(output.hasSuffix("ALL OK\n"), "\(output)")
    }
}
