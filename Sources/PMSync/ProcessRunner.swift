import Foundation

/// Runs a command (git) with a time limit, its output captured in files so
/// that a chatty child can never block on a full pipe.
struct ProcessRunner: Sendable {
    struct Result: Sendable {
        var status: Int32
        var output: String
        var errors: String
        var timedOut: Bool
    }

    var environment: [String: String]

    /// Runs `executable` (looked up on PATH) with `arguments`; kills it after `timeout` seconds.
    func run(_ executable: String, _ arguments: [String], in directory: String? = nil, timeout: Double) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pm-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let output = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, output: output, errors: errors, timedOut: timedOut)
    }
}
