import Foundation
import Testing

/// For a suite whose tests spend their time waiting (on a terminal's
/// screen, a moving clock, a timeout, a child that sleeps): its tests run on
/// threads of their own, not on Swift Testing's workers. There are as many
/// workers as processor cores; one that sleeps leaves a core idle while the
/// tests that need one queue behind it, and each test of a serialized suite
/// waited its turn behind the whole queue again. The tests are the same
/// tasks (their expectations are recorded as theirs); only the threads differ.
struct OnOwnThreads: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Child tasks (the suite's tests) inherit the preference.
        try await withTaskExecutorPreference(OwnThread()) { try await function() }
    }
}

extension Trait where Self == OnOwnThreads {
    /// Runs the suite's tests on threads of their own (``OnOwnThreads``).
    static var onOwnThreads: Self { OnOwnThreads() }
}

/// A task executor that runs each job on a new thread.
private final class OwnThread: TaskExecutor, @unchecked Sendable {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread.detachNewThread { job.runSynchronously(on: executor) }
    }
}
