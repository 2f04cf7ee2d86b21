import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// `pm news`: what others changed since you last looked (DESIGN.md §13),
/// per person with counts, then card by card, newest first, in the
/// reader's language and time zone; then marked seen.
struct News: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "news", abstract: help(.helpCommandNews)) }

    @Flag(help: ArgumentHelp(help(.helpPeek))) var peek = false
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    /// How many of the newest events a first look reads (nothing marked yet).
    static let firstLook = 50

    func run(in context: ProcessContext) throws {
        let env = context.environment
        let store = context.session.store()
        guard let board = try store.load() else {
            context.output.line(output.json ? "[]" : context.localizer.string(.newsNone))
            return
        }
        let markPath = NewsMark.path(stateDirectory: env.stateDirectory, boardID: board.id, user: env.user)
        let mark = try NewsMark.load(markPath)
        let news = try store.eventLog().news(
            since: mark, mine: context.session.ownReplicas, newest: Self.firstLook,
            current: NewsMark(events: board.log.events, length: board.log.length))
        // Newest first, as history reads; only copies the board takes, each
        // change naming its copy's person when it names someone else.
        let ledger = try store.replicaLedger()
        let entries = ledger.historyEntries(news.events).reversed() as [HistoryEvent]
        if output.json {
            context.output.line(HistoryJSON.array(entries))
        } else {
            render(entries, sinceMark: news.sinceMark, board: board, context: context)
        }
        // Shown first: marked seen only once it reached the reader.
        try context.output.flush()
        if !peek, mark != news.end { try news.end.save(markPath) }
    }

    private func render(_ entries: [HistoryEvent], sinceMark: Bool, board: Board, context: ProcessContext) {
        let l = context.localizer
        guard !entries.isEmpty else {
            context.output.line(l.string(.newsNone))
            return
        }
        let style = context.style(color: colors.useColor(context))
        context.output.line(style.bold(l.plural(sinceMark ? .newsHeader : .newsRecent, count: entries.count)))
        // What the changes amount to: a change and its undo say nothing, an import is one line.
        let (kept, cancelled) = NewsFold.fold(entries)
        let (imports, rest) = NewsFold.imports(kept)
        let view = HistoryView(localizer: l, style: style, reader: context.environment.user)
        renderPeople(entries, rest: rest, imports: imports, cancelled: cancelled, view: view, context: context)
        renderCards(rest, imports: imports, board: board, view: view, style: style, context: context)
    }

    /// Per person, in the order of their newest change: counts by what they did.
    private func renderPeople(
        _ entries: [HistoryEvent], rest: [HistoryEvent], imports: [NewsFold.ImportStep], cancelled: [HistoryEvent],
        view: HistoryView, context: ProcessContext
    ) {
        let l = context.localizer
        var people: [String] = []
        var counts: [String: [HistoryAction: Int]] = [:]
        var imported: [String: Int] = [:]
        var cancelledBy: [String: Int] = [:]
        for entry in entries where !people.contains(view.who(entry)) { people.append(view.who(entry)) }
        for entry in rest { counts[view.who(entry), default: [:]][entry.action, default: 0] += 1 }
        for step in imports {
            let who = view.who(step.entries[0])
            switch step.kind {
            case .imported: imported[who, default: 0] += step.entries.count
            case .undone: counts[who, default: [:]][.removed, default: 0] += step.entries.count
            case .redone: counts[who, default: [:]][.added, default: 0] += step.entries.count
            }
        }
        for entry in cancelled { cancelledBy[view.who(entry), default: 0] += 1 }
        let kinds: [(HistoryAction, L10nPluralKey)] = [
            (.added, .newsAdded), (.moved, .newsMoved), (.edited, .newsEdited), (.removed, .newsRemoved),
            (.view, .newsViews),
        ]
        for person in people {
            let parts =
                [imported[person].map { l.plural(.newsImported, count: $0) }]
                + kinds.map { action, key in counts[person]?[action].map { l.plural(key, count: $0) } }
                + [cancelledBy[person].map { l.plural(.newsCancelled, count: $0) }]
            context.output.line(
                "  " + l.string(.newsPerson, .text(person), .text(parts.compactMap { $0 }.joined(separator: " · "))))
        }
    }

    /// A card's changes, or an import's.
    private enum Block {
        case card(TaskID)
        case step(NewsFold.ImportStep)
    }

    /// Card by card, and each import as one line, the most recent first.
    private func renderCards(
        _ rest: [HistoryEvent], imports: [NewsFold.ImportStep], board: Board, view: HistoryView, style: TextStyle,
        context: ProcessContext
    ) {
        let l = context.localizer
        var blocks: [(newest: String, order: Int, block: Block)] = []
        var byCard: [TaskID: [HistoryEvent]] = [:]
        for entry in rest {
            if byCard[entry.taskID] == nil { blocks.append((entry.at, blocks.count, .card(entry.taskID))) }
            byCard[entry.taskID, default: []].append(entry)
        }
        for step in imports { blocks.append((step.entries[0].at, blocks.count, .step(step))) }
        // Newest first (ISO times order as text); ties keep the order read.
        blocks.sort { ($0.newest, -$0.order) > ($1.newest, -$1.order) }
        for (_, _, block) in blocks {
            context.output.line("")
            switch block {
            case .card(let card):
                let events = byCard[card] ?? []
                let title = TextSafety.escaped(board.task(card)?.title ?? events.first?.title ?? "")
                // A saved view's changes are headed by its name, said as a view's.
                let isView = events.first?.action == .view
                context.output.line(style.bold(isView ? l.string(.newsViewTitle, .text(title)) : title))
                for line in view.lines(events) { context.output.line("  " + line) }
            case .step(let step):
                let key: L10nPluralKey =
                    switch step.kind {
                    case .imported: .newsImportLine
                    case .undone: .newsImportUndone
                    case .redone: .newsImportRedone
                    }
                let first = step.entries[0]
                context.output.line(
                    "  "
                        + l.string(
                            .historyLine, .text(style.dim(style.dateTime(first.at))), .text(view.who(first)),
                            .text(l.plural(key, count: step.entries.count))))
            }
        }
    }
}
