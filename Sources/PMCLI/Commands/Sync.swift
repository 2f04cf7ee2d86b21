import ArgumentParser
import FoundationEssentials
import Glibc
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync

/// `pm sync [--watch]`.
struct Sync: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "sync", abstract: help(.helpCommandSync)) }

    @Flag(help: ArgumentHelp(help(.helpWatch))) var watch = false
    @Flag(help: ArgumentHelp(help(.helpJoin))) var join = false
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        // A watch that cannot keep its interval does not start (nor sync once).
        if watch { _ = try context.syncInterval() }
        let session = context.session
        let target = try session.requireRemote()
        try session.keyStore().checkSafe()
        try session.mergeConflictedCopies()
        if join || !watch {
            context.reportSync(try session.sync(target, join: join), target: target)
            guard watch else { return }
        }
        try SyncWatch(context: context, target: target).run()
    }
}

/// `pm sync --watch`: syncs after each change here (the log grows) and every
/// interval from the remote, until interrupted; offline is said and waited out.
/// SIGINT and SIGTERM are blocked and waited for between syncs, so an
/// interruption never cuts a sync in half and ends with exit 0.
struct SyncWatch {
    var context: ProcessContext
    var target: RemoteTarget

    func run() throws {
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stops, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &stops, nil) }
        let milliseconds = try context.syncInterval()
        let interval = Double(milliseconds) / 1000
        try banner(milliseconds)
        let logPath = try context.session.store().eventLog().path
        func logSize() -> Int64 { ((try? PosixFileSystem().status(logPath)) ?? nil)?.size ?? -1 }
        var seenSize: Int64 = -2
        let clock = context.session.settings.monotonicSeconds
        var lastSync: Double?
        let setting = try context.session.syncState().load()
        while true {
            if logSize() != seenSize || lastSync.map({ clock() - $0 >= interval }) ?? true {
                // `pm remote remove` under the watch: it ends, as asked.
                guard try context.session.keepRemote(setting) else {
                    context.output.line(context.localizer.string(.remoteNone))
                    return
                }
                do {
                    context.reportSync(
                        try context.session.sync(target), target: target, quietWhenIdle: lastSync != nil)
                } catch let error as SessionError {
                    context.output.errorLine(context.describe(error).joined(separator: "\n"))
                }
                try context.output.flush()
                seenSize = logSize()
                lastSync = clock()
            }
            var wait = timespec(tv_sec: 0, tv_nsec: 200_000_000)
            if sigtimedwait(&stops, nil, &wait) > 0 { return }
        }
    }

    /// `Syncing with 'X' every 30 seconds…`, at once.
    private func banner(_ milliseconds: Int) throws {
        let l = context.localizer
        let often =
            milliseconds == 1000
            ? l.string(.syncEverySecond)
            : milliseconds % 1000 == 0
                ? l.plural(.syncEverySeconds, count: milliseconds / 1000)
                : l.plural(.syncEveryMilliseconds, count: milliseconds)
        context.output.line(l.string(.syncWatching, .text(TextSafety.escaped(target.description)), .text(often)))
        try context.output.flush()
    }
}
