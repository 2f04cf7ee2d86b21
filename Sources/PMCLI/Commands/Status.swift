import ArgumentParser
import FoundationEssentials
import Glibc
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync
import PMViews

/// `pm status`: the board, its counts, where it syncs and whether that answers
/// now, the last sync, changes waiting and unresolved conflicts.
struct Status: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "status", abstract: help(.helpCommandStatus))
    }

    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    func run(in context: ProcessContext) throws {
        let status = try context.session.status()
        if output.json {
            context.output.line(json(status, today: context.environment.today, now: context.environment.now()).prettyJSON)
        } else {
            render(status, context)
        }
    }

    private func json(_ status: BoardSession.Status, today: CivilDate, now: Date) -> JSONValue {
        var remote = JSONValue.null
        if let target = status.target {
            remote = .object([
                "target": .string(target.description), "reachable": .bool(status.reachable ?? false),
                "kind": .string({ if case .git = target { "git" } else { "folder" } }()),
            ])
        }
        return .object([
            "board": .string(status.path),
            "tasks": .object(
                Dictionary(
                    uniqueKeysWithValues: zip(TaskState.allCases.map(\.rawValue), status.counts.map { .number(String($0)) }))),
            "overdue": .number(String(status.overdue(today: today, now: now))), "remote": remote,
            "lastSync": status.sync.lastSync.map(JSONValue.string) ?? .null, "waiting": .number(String(status.waiting)),
            "conflicts": .array(
                status.conflicted.map { task in
                    .object([
                        "id": .string(task.id.rawValue), "title": .string(task.title),
                        "fields": .array(task.conflicts.keys.sorted().map(JSONValue.string)),
                    ])
                }),
            "restored": .array(status.board.tasks.filter(\.restored).map { .string($0.id.rawValue) }),
        ])
    }

    private func render(_ status: BoardSession.Status, _ context: ProcessContext) {
        let l = context.localizer
        let (board, target, reachable, counts) = (status.board, status.target, status.reachable, status.counts)
        let overdue = status.overdue(today: context.environment.today, now: context.environment.now())
        let conflicted = status.conflicted
        let style = context.style(color: colors.useColor(context))
        // Each number with its counter where the language has one (할 일 3개).
        var tasks = zip(TaskState.allCases, counts).map {
            l.plural(.statusInColumn, count: $1, .text(l.string(StateNames.key($0))))
        }
        .joined(separator: " · ")
        if overdue > 0 { tasks += " · " + l.plural(.listOverdue, count: overdue) }
        // One word per row: it agrees with the row's noun (la cible → aucune).
        var remoteText = l.string(.statusNoRemote)
        if let target {
            remoteText =
                TextSafety.escaped(target.description) + " (" + context.kindName(target) + ") · "
                + l.string(reachable == true ? .statusReachable : .statusUnreachable)
        }
        let shortIDs = TaskLookup.shortIDs(for: board.tasks)
        var conflictLines = conflicted.map { task in
            (shortIDs[task.id] ?? "") + " " + TextSafety.escaped(task.title) + " ("
                + l.list(task.conflicts.keys.sorted().map { FieldNames.label($0, l) }) + ")"
        }
        if conflictLines.isEmpty { conflictLines = [l.string(.statusNone)] }
        var rows: [(L10nKey, String)] = [
            (.statusBoard, TextSafety.escaped(status.path)), (.statusTasks, tasks), (.statusRemote, remoteText),
        ]
        if target != nil {
            rows.append((.statusLastSync, status.sync.lastSync.map(style.dateTime) ?? l.string(.statusNever)))
            rows.append((.statusWaiting, l.plural(.statusWaitingCount, count: status.waiting)))
        }
        rows.append((.statusConflicts, conflictLines[0]))
        let labels = rows.map { l.string($0.0) }
        let width = labels.map { TerminalCells.width(of: $0) }.max() ?? 0
        for (label, row) in zip(labels, rows) {
            context.output.line(style.bold(TerminalCells.pad(label, toWidth: width)) + "  " + row.1)
        }
        for line in conflictLines.dropFirst() { context.output.line(String(repeating: " ", count: width + 2) + line) }
    }
}
