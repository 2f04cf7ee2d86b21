import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

struct Export: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "export", abstract: help(.helpCommandExport),
            subcommands: [ExportICS.self, ExportJSON.self, ExportCSV.self, ExportHTML.self])
    }
}

struct ExportICS: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "ics", abstract: help(.helpCommandExportIcs))
    }

    @Option(help: ArgumentHelp(help(.helpOutput))) var output: String?
    @OptionGroup var filters: FilterOptions
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let board = try filters.filteredBoard(context)
        // The log gives each event its SEQUENCE and the deleted tasks to withdraw.
        var exporter = CalendarExporter(
            today: context.environment.today, now: context.now, schedule: context.reminders,
            revisions: CalendarExport.Revisions(events: try context.session.store().eventLog().readAll().events),
            alarmText: { context.localizer.string(.icsAlarm, .text($0)) },
            assigneesText: { context.localizer.string(.icsAssignees, .text($0)) })
        exporter.soonAlarmText = { context.localizer.string(.icsAlarmSoon, .text($0)) }
        try context.export(board.tasks, with: exporter, to: output, said: .exportWritten)
    }
}

/// `pm export json`: the whole board for scripts (Resources/export.schema.json).
struct ExportJSON: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "json", abstract: help(.helpCommandExportJson))
    }

    @Option(help: ArgumentHelp(help(.helpOutput))) var output: String?
    @OptionGroup var filters: FilterOptions
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let board = try filters.filteredBoard(context)
        let exporter = JSONExporter(board: board.id, exportedAt: context.now, today: context.environment.today)
        try context.export(board.tasks, with: exporter, to: output, said: .exportTasksWritten)
    }
}

/// `pm export csv`: the board for spreadsheets, in the format `pm import csv` reads back.
struct ExportCSV: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "csv", abstract: help(.helpCommandExportCsv))
    }

    @Option(help: ArgumentHelp(help(.helpOutput))) var output: String?
    @Option(help: ArgumentHelp(help(.helpCsvDelimiter), valueName: "delimiter")) var delimiter: String?
    @Option(help: ArgumentHelp(help(.helpCsvHeaders), valueName: "headers")) var headers: String?
    @OptionGroup var filters: FilterOptions
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let l = context.localizer
        // What the reader's spreadsheet reads: a semicolon where a comma is
        // the decimal mark (a comma there would split "1,5" in two).
        let separator: Character
        switch delimiter {
        case nil: separator = ICUNumbers.decimalSeparator(locale: context.formatLocale) == "," ? ";" : ","
        case ","?: separator = ","
        case ";"?: separator = ";"
        case "tab"?, "\t"?, "\u{9}"?: separator = "\t"
        case let other?: throw CLIError.csvDelimiter(other)
        }
        // The header in the reader's words (the first of each column's names
        // in the table, which pm import csv reads back), or pm's own for a script.
        let local: Bool
        switch headers?.lowercased() {
        case nil, "local"?: local = l.language != "en"
        case "en"?: local = false
        case let other?: throw CLIError.csvHeaders(other)
        }
        let keys: [L10nKey] = [
            .csvColumnID, .csvColumnTitle, .csvColumnState, .csvColumnDue, .csvColumnAssignees, .csvColumnBody,
            .csvColumnLabels, .csvColumnPriority, .csvColumnRecur,
        ]
        let names = local ? keys.map { String(l.string($0).split(separator: "|").first ?? "") } : nil
        let board = try filters.filteredBoard(context)
        let exporter = CSVExporter(delimiter: separator, headers: names)
        try context.export(board.tasks, with: exporter, to: output, said: .exportTasksWritten)
    }
}

/// `pm export html`: one read-only page of the board for people without a terminal.
struct ExportHTML: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "html", abstract: help(.helpCommandExportHtml))
    }

    @Option(help: ArgumentHelp(help(.helpOutput))) var output: String?
    @OptionGroup var filters: FilterOptions
    @OptionGroup var common: CommonOptions

    /// How many of the newest changes the page lists.
    static let newestCount = 10

    func run(in context: ProcessContext) throws {
        let board = try filters.filteredBoard(context)
        let plain = context.style(color: false)
        let history = HistoryView(localizer: context.localizer, style: plain)
        let shown = Set(board.tasks.map(\.id))
        // A filtered page lists only the changes to the cards it shows.
        let newest = try context.session.store().recentHistory(limit: filters.isFiltering ? 200 : Self.newestCount)
            .filter { !filters.isFiltering || shown.contains($0.taskID) }.prefix(Self.newestCount)
            .map { (at: $0.at, by: history.who($0), sentence: history.described($0)) }
        let page = HTMLExport(
            localizer: context.localizer, style: plain, today: context.environment.today, madeAt: context.now,
            newest: Array(newest),
            filterNote: filters.isFiltering
                ? context.localizer.string(.htmlFiltered, .text(filters.typed.joined(separator: " "))) : nil)
        try context.export(board.tasks, with: page, to: output, said: .exportTasksWritten)
    }
}

extension ProcessContext {
    /// Every export's delivery: the document on standard output, or written
    /// to `output` (never half a file) and said in the reader's language
    /// (`said`: how many things, and where).
    func export(_ tasks: [BoardTask], with exporter: some BoardExporter, to output: String?, said: L10nPluralKey) throws {
        let text = exporter.document(tasks)
        guard let output else {
            self.output.write(text)
            return
        }
        try FileExport.write(text, to: output)
        self.output.done = .wroteFile(output)
        self.output.line(localizer.plural(said, count: exporter.itemCount(tasks, in: text), shown(output)))
    }
}
