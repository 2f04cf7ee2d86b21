import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' way of running a program (``ChildProcess``), which every
/// end-to-end test depends on: what it hands the child and what it reports.
@Suite struct ChildProcessTests {
    @Test func theChildHoldsNothingButItsThreeStreams() throws {
        // A descriptor this process has open without close-on-exec.
        let held = open("/dev/null", O_RDONLY)
        defer { close(held) }
        #expect(held > 2)
        // (Without LD_PRELOAD: libfaketime, in a run on a faked clock, opens a file of its own in every process.)
        let listed = try runChild("/bin/sh", ["-c", "ls /proc/$$/fd"], environment: ["PATH": "/usr/bin:/bin"])
        let descriptors = String(decoding: listed.stdout, as: UTF8.self).split(separator: "\n")
        #expect(descriptors.sorted() == ["0", "1", "2"], "\(descriptors)")
    }

    @Test func statusOutputErrorsAndInput() throws {
        let run = try runChild(
            "/bin/sh", ["-c", "cat; echo oops >&2; exit 3"], input: Data("from the test\n".utf8))
        #expect(run.status == 3)
        #expect(String(decoding: run.stdout, as: UTF8.self) == "from the test\n")
        #expect(String(decoding: run.stderr, as: UTF8.self) == "oops\n")
        let merged = try runChild("/bin/sh", ["-c", "echo one; echo two >&2"], stderr: .output)
        #expect(String(decoding: merged.stdout, as: UTF8.self) == "one\ntwo\n")
        let directory = TemporaryDirectory()
        let inside = try runChild("/bin/pwd", [], in: directory.path)
        #expect(String(decoding: inside.stdout, as: UTF8.self) == directory.path + "\n")
    }

    @Test func aSignalReachesWhatTheChildStartedAndIsReportedAsAShellWould() throws {
        let directory = TemporaryDirectory()
        let mark = directory.file("grandchild")
        // The grandchild writes its pid, then sleeps; the child waits for it.
        let child = try ChildProcess("/bin/sh", ["-c", "sh -c 'echo $$ > \"$0\"; exec sleep 60' \"$0\"; wait", mark])
        #expect(child.isRunning)
        var grandchild: pid_t?
        for _ in 0..<500 where grandchild == nil {
            grandchild = directory.read("grandchild").flatMap {
                pid_t(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if grandchild == nil { usleep(10_000) }
        }
        let pid = try #require(grandchild)
        child.send(SIGTERM)
        #expect(child.wait().status == 128 + SIGTERM)
        #expect(!child.isRunning)
        // The grandchild got it too (it is gone, or a zombie until init reaps it).
        var gone = false
        for _ in 0..<500 where !gone {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ")
            gone = state == nil || state?[2] == "Z"
            if !gone { usleep(10_000) }
        }
        #expect(gone)
    }
}
