import ArgumentParser
import PMCore
import PMICU
import PMLocalization

/// `pm l10n status [DIR] [--json]`: per language, how much is translated,
/// what is missing, and what is stale (translated from an English text that
/// is not today's, as each entry's comment records).
struct L10nStatus: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "status", abstract: help(.helpCommandL10nStatus))
    }

    @Argument(help: ArgumentHelp(help(.helpDir))) var directory: String?
    @OptionGroup var output: JSONOption

    func run() throws {
        let tables = try L10nCheck.tables(in: directory)
        let englishFile = tables.first { $0.language == "en" }
        let english = englishFile ?? L10nCheck.shipped("en", TableSource.shippedBytes(for: "en") ?? [])
        let withEnglish = englishFile == nil ? [english] + tables : tables
        let statuses = withEnglish.sorted {
            ($0.language != "en" ? 1 : 0, $0.language) < ($1.language != "en" ? 1 : 0, $1.language)
        }
        .map { TableStatus.status(english: english, table: $0) }
        let out = Output()
        if output.json {
            out.line(Self.json(statuses).prettyJSON)
        } else {
            render(statuses, into: out)
        }
        try out.flush()
    }

    private func render(_ statuses: [LanguageStatus], into out: Output) {
        let l = ProcessContext.localizer
        let unknown = "?"
        let width = statuses.map { TerminalCells.width(of: "\($0.language) \(TextSafety.escaped($0.name))") }.max() ?? 0
        for status in statuses {
            let head = "\(status.language) \(TextSafety.escaped(status.name))"
            let padded = head + String(repeating: " ", count: max(0, width - TerminalCells.width(of: head)))
            out.line(
                l.string(
                    .l10nStatusLine, .text(padded), .number(status.percent), .number(status.translated), .number(status.total),
                    .number(status.missing.count), .text(status.stale.map { l.numberText($0.count) } ?? unknown)))
            if !status.missing.isEmpty { out.line(l.string(.l10nStatusMissing, .text(Self.some(status.missing, l)))) }
            if let stale = status.stale, !stale.isEmpty { out.line(l.string(.l10nStatusStale, .text(Self.some(stale, l)))) }
        }
        if statuses.contains(where: { $0.stale == nil }) { out.line(l.string(.l10nStatusStaleUnknown)) }
    }

    /// Up to eight keys, and how many more.
    static func some(_ keys: [String], _ l: Localizer) -> String {
        let shown = keys.prefix(8).map { TextSafety.escaped($0) }.joined(separator: ", ")
        return keys.count > 8 ? l.plural(.l10nStatusMore, count: keys.count - 8, .text(shown)) : shown
    }

    static func json(_ statuses: [LanguageStatus]) -> JSONValue {
        .object([
            "formatVersion": .number("1"),
            "languages": .array(
                statuses.map { status in
                    .object([
                        "language": .string(status.language), "name": .string(status.name),
                        "messages": .number(String(status.total)), "translated": .number(String(status.translated)),
                        "percent": .number(String(status.percent)), "missing": .array(status.missing.map(JSONValue.string)),
                        "stale": status.stale.map { .array($0.map(JSONValue.string)) } ?? .null,
                    ])
                }),
        ])
    }
}
