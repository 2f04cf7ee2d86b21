import ArgumentParser
import PMBoardUI
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync
import PMViews

/// `--sort due|title|created`.
enum SortOrder: String, ExpressibleByArgument, CaseIterable {
    case due, title, created, priority
}

struct List: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "list", abstract: help(.helpCommandList), aliases: ["ls"])
    }

    @Option(name: .long, help: ArgumentHelp(help(.helpState))) var state: [String] = []
    @Option(name: .long, help: ArgumentHelp(help(.helpSort))) var sort: SortOrder?
    @Option(name: .long, help: ArgumentHelp(help(.helpGrep), valueName: "text")) var grep: String?
    @Option(name: .long, help: ArgumentHelp(help(.helpView), valueName: "view")) var view: String?
    @OptionGroup var filters: FilterOptions
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    func run(in context: ProcessContext) throws {
        let saved = try view.map { try AppliedView($0, context) }
        var states = try state.isEmpty ? TaskState.allCases : state.map { try StateNames.parse($0, localizer: context.localizer) }
        if let saved, !saved.states.isEmpty { states = states.filter(saved.states.contains) }
        let snapshot = try context.session.snapshot(
            filters: [try filters.filter(context)] + (saved.map { [$0.filter] } ?? []),
            texts: [grep, saved?.text].compactMap { $0 }, locale: context.formatLocale, shownOnly: !output.json,
            withUndo: context.stdoutIsTerminal && !output.json)
        let today = context.environment.today
        let order = sort ?? saved?.sort ?? .due
        let columns = TaskState.allCases.filter { states.contains($0) }.map { state in
            BoardView.Column(
                state: state,
                tasks: sorted(snapshot.tasks.filter { $0.state == state }, by: order, locale: context.formatLocale))
        }
        if output.json {
            context.output.line(TaskJSON.array(columns.flatMap(\.tasks), today: today, now: context.environment.now()))
            return
        }
        let view = BoardView(
            localizer: context.localizer, style: context.style(color: colors.useColor(context)), width: context.width,
            today: today, now: context.environment.now())
        let listed = columns.flatMap(\.tasks)
        context.output.bytes(
            view.render(
                columns, shortIDs: TaskLookup.shortIDs(for: snapshot.board.tasks), total: listed.count,
                overdue: listed.filter { $0.isOverdue(today: today, now: view.now) }.count))
        footer(context, snapshot, listed: listed.count)
    }

    /// What the list leaves out, what undo can do, news and sync, each cut
    /// (or wrapped) to the terminal's width.
    private func footer(_ context: ProcessContext, _ snapshot: BoardSession.Snapshot, listed: Int) {
        let board = snapshot.board
        let l = context.localizer
        // A view that hides tasks says so, and by what.
        let typed =
            (view.map { ["--view " + ShellWord.quoted(TextSafety.escaped($0))] } ?? []) + filters.typed
            + (grep.map { ["--grep " + TextSafety.escaped($0)] } ?? [])
        if !typed.isEmpty {
            let line = l.plural(.listFiltered, count: listed, .text(typed.joined(separator: " ")), .number(board.tasks.count))
            context.output.line(TerminalCells.truncate(line, toWidth: context.width))
        }
        // The undo hint is for the person at the terminal, not for scripts or files.
        if context.stdoutIsTerminal {
            let undo = snapshot.undo ?? context.session.undoAvailability(on: board)
            context.output.line(TerminalCells.truncate(undoFooter(context, undo), toWidth: context.width))
        }
        if let waiting = context.session.newsWaiting(on: board) {
            let news = l.plural(waiting.whole ? .newsWaiting : .newsWaitingAtLeast, count: waiting.count)
            context.output.line(TerminalCells.truncate(news, toWidth: context.width))
        }
        // Offline first, and wrapped between its parts rather than cut: at 80
        // columns a Korean or French line would otherwise lose the word.
        if let summary = Self.syncSummary(context, style: context.style(color: false)) {
            for line in Self.wrap(summary.components(separatedBy: " · "), width: context.width) { context.output.line(line) }
        }
    }

    /// One line from the last sync when a remote is set (no network).
    static func syncSummary(_ context: ProcessContext, style: TextStyle, saysOffline: Bool = true) -> String? {
        guard let (state, waiting) = syncWaiting(context) else { return nil }
        return syncLine(context, state: state, waiting: waiting, style: style, saysOffline: saysOffline)
    }

    /// The sync state when a remote is set, and how many changes wait to be sent.
    static func syncWaiting(_ context: ProcessContext) -> (SyncState, Int)? {
        guard let state = try? context.session.syncState().load(), let remote = state.remote else { return nil }
        return (
            state,
            (try? context.session.syncer(context.session.remoteTarget(remote, kind: state.remoteKind), signing: false).waiting())
                ?? 0
        )
    }

    /// ``syncSummary(_:style:saysOffline:)``'s line for a state and count already read.
    static func syncLine(_ context: ProcessContext, state: SyncState, waiting: Int, style: TextStyle, saysOffline: Bool) -> String
    {
        let l = context.localizer
        var line =
            state.lastSync.map { l.plural(.listSync, count: waiting, .text(style.dateTime($0))) }
            ?? l.plural(.listSyncNever, count: waiting)
        if saysOffline, let at = state.wentOffline {
            line = l.string(.listSyncOffline, .text(style.dateTime(at))) + " · " + line
        }
        return line
    }

    /// Parts joined by ` · `, a new line where the next part would not fit;
    /// a part wider than the whole line is cut there.
    static func wrap(_ parts: [String], width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for part in parts {
            if current.isEmpty {
                current = part
            } else if TerminalCells.width(of: current + " · " + part) <= width {
                current += " · " + part
            } else {
                lines.append(current)
                current = part
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { TerminalCells.truncate($0, toWidth: width) }
    }

    /// Whether undo and redo are available, as the apps greyed out their
    /// buttons: a step someone else's change blocks is not offered as available.
    func undoFooter(_ context: ProcessContext, _ undo: BoardSession.UndoAvailability) -> String {
        let l = context.localizer
        if undo.undoBlocked { return l.string(.listUndoBlocked) }
        switch (undo.canUndo, undo.canRedo) {
        case (true, true): return l.string(.listCanUndoAndRedo)
        case (true, false): return l.string(.listCanUndo)
        case (false, true): return l.string(.listCanRedo)
        case (false, false): return l.string(.listNoUndo)
        }
    }

    /// Default: by deadline (none last), then creation. `title` uses the
    /// reader's collation; `priority` puts urgent first.
    func sorted(_ tasks: [BoardTask], by sort: SortOrder, locale: String) -> [BoardTask] {
        // Indices sorted on keys computed once: moving whole tasks and
        // re-reading their fields at every comparison cost more than the rest.
        func byCreation(_ a: Int, _ b: Int) -> Bool {
            let (x, y) = (tasks[a], tasks[b])
            return x.createdAt != y.createdAt ? x.createdAt < y.createdAt : x.id < y.id
        }
        func ordered(_ less: (Int, Int) -> Bool) -> [BoardTask] {
            var indices = Array(tasks.indices)
            indices.sort(by: less)
            return indices.map { tasks[$0] }
        }
        switch sort {
        case .due:
            return BoardTask.byDeadline(tasks)
        case .created:
            return ordered(byCreation)
        case .priority:
            return BoardTask.byPriority(tasks)
        case .title:
            guard let collator = ICUCollator(locale: locale) else { return tasks.sorted { $0.title < $1.title } }
            return tasks.sorted { a, b in
                let order = collator.compare(a.title, b.title)
                return order != 0 ? order < 0 : (a.createdAt, a.id) < (b.createdAt, b.id)
            }
        }
    }
}
