import Foundation
import Testing

/// Every example in the README is what pm prints today. Each ```console
/// block follows a `<!-- example: WORLD -->` comment that names the board it
/// runs on; its `$ ` lines are run through the binary in order, and what
/// they print (standard output, then standard error) must be the lines
/// under them. A line that is only `…` stands for lines left out. The
/// ```sh blocks marked the same way are run too: every pm command in them is
/// accepted (no usage error, no crash).
@Suite struct ReadmeExampleTests {
    /// A README block: its world, its kind, and its lines.
    struct Block: CustomTestStringConvertible, Sendable {
        let world: String
        let console: Bool
        let line: Int
        let lines: [String]
        var testDescription: String { "README line \(line) (\(world))" }
    }

    /// The person whose home the examples show.
    static let shownHome = "/home/camille"

    static let blocks: [Block] = {
        let readme = PMBinary.packageRoot.appendingPathComponent("README.md")
        let text = (try? String(contentsOf: readme, encoding: .utf8)) ?? ""
        var blocks: [Block] = []
        var world: String?
        var open: (console: Bool, line: Int, world: String?)?
        var lines: [String] = []
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let current = open {
                if trimmed == "```" {
                    if let named = current.world {
                        blocks.append(Block(world: named, console: current.console, line: current.line, lines: lines))
                    } else if current.console {
                        blocks.append(Block(world: "", console: true, line: current.line, lines: lines))
                    }
                    open = nil
                } else {
                    lines.append(line)
                }
            } else if trimmed.hasPrefix("<!-- example: ") {
                world = String(trimmed.dropFirst("<!-- example: ".count).prefix { $0 != " " })
            } else if trimmed.hasPrefix("```") {
                open = (trimmed == "```console", number + 1, world)
                lines = []
                world = nil
            } else if !trimmed.isEmpty {
                world = nil
            }
        }
        return blocks
    }()

    @Test func everyConsoleExampleNamesItsBoard() {
        let console = Self.blocks.filter(\.console)
        #expect(console.count >= 4, "the README's console examples were not found")
        for block in console {
            #expect(!block.world.isEmpty, "README line \(block.line): a console example without <!-- example: … -->")
        }
    }

    @Test(arguments: blocks.filter(\.console))
    func consoleExamplesAreWhatPmPrints(_ block: Block) throws {
        let world = try World(block.world)
        var index = 0
        while index < block.lines.count {
            let line = block.lines[index]
            index += 1
            guard line.hasPrefix("$ ") else { continue }
            var expected: [String] = []
            while index < block.lines.count, !block.lines[index].hasPrefix("$ ") {
                expected.append(block.lines[index])
                index += 1
            }
            while expected.last?.isEmpty == true { expected.removeLast() }
            let shown = try world.run(line.dropFirst(2))
            let problem = Self.difference(expected: expected, actual: shown)
            #expect(problem == nil, "README line \(block.line), \(line): \(problem ?? "")\n\(shown.joined(separator: "\n"))")
        }
    }

    @Test(arguments: blocks.filter { !$0.console })
    func shellExamplesAreAccepted(_ block: Block) throws {
        let world = try World(block.world)
        for line in block.lines {
            let command = line.components(separatedBy: " #").first!.trimmingCharacters(in: .whitespaces)
            // `pm sync --watch` runs until interrupted: SyncEndToEndTests drive it.
            guard command.hasPrefix("pm "), !command.contains("--watch") else { continue }
            let (status, output) = try world.status(Substring(command))
            #expect(![64, 70].contains(status) && status < 128, "README line \(block.line), \(command): \(status)\n\(output)")
        }
    }

    /// Nil when `actual` is `expected`, where a line `…` matches any lines.
    static func difference(expected: [String], actual: [String]) -> String? {
        let strip = { (line: String) in String(line.reversed().drop { $0 == " " }.reversed()) }
        var actualIndex = 0
        var skipping = false
        for want in expected.map(strip) {
            if want == "…" {
                skipping = true
                continue
            }
            while skipping, actualIndex < actual.count, strip(actual[actualIndex]) != want { actualIndex += 1 }
            guard actualIndex < actual.count else { return "missing: \(want)" }
            let got = strip(actual[actualIndex])
            if got != want { return "expected: \(want)\n     got: \(got)" }
            actualIndex += 1
            skipping = false
        }
        if !skipping, actualIndex < actual.count, actual[actualIndex...].contains(where: { !$0.isEmpty }) {
            return "printed more: \(actual[actualIndex])"
        }
        return nil
    }
}

/// A board the README's examples run on, with the clock, zone, width and
/// user the examples show.
struct World {
    let pm: PMBinary

    init(_ name: String) throws {
        var pm = PMBinary()
        pm.environment["PM_USER"] = "camille"
        self.pm = pm
        try pm.useSampleBoard()
        // The sync tool's folder the examples share through (Syncthing's ~/Sync).
        try FileManager.default.createDirectory(atPath: pm.home.file("Sync"), withIntermediateDirectories: true)
        switch name {
        case "sample": break
        case "story": try story()
        case "offline": try offline()
        case "cards": try cards()
        default: throw WorldError.unknown(name)
        }
    }

    enum WorldError: Error {
        case unknown(String)
        case unparsable(String)
    }

    /// Two people's morning on the sample board, one change taken back.
    func story() throws {
        let steps: [([String], String, String)] = [
            (["move", "3f2a", "doing"], "ji-woo", "2026-11-21T08:00:00Z"),
            (["move", "a1b2", "todo"], "camille", "2026-11-21T09:15:00Z"),
            (["undo"], "camille", "2026-11-21T09:16:00Z"),
            (["edit", "3f2a", "--no-due"], "ji-woo", "2026-11-21T09:45:00Z"),
        ]
        for (arguments, user, time) in steps {
            let run = try pm.run(arguments, ["PM_USER": user, "PM_NOW": time])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
    }

    /// A card that carries a priority, a label, a checklist and a comment.
    func cards() throws {
        let steps: [([String], String, String)] = [
            (["edit", "a1b2", "--priority", "high"], "camille", "2026-11-21T08:00:00Z"),
            (["label", "a1b2", "release"], "camille", "2026-11-21T08:01:00Z"),
            (["check", "a1b2", "add", "Tag the build"], "camille", "2026-11-21T08:02:00Z"),
            (["check", "a1b2", "add", "Write the notes"], "camille", "2026-11-21T08:03:00Z"),
            (["check", "a1b2", "done", "1"], "camille", "2026-11-21T08:04:00Z"),
            (["check", "a1b2", "done", "2"], "ji-woo", "2026-11-21T09:00:00Z"),
            (["comment", "a1b2", "노트 초안 올렸습니다"], "ji-woo", "2026-11-21T09:01:00Z"),
        ]
        for (arguments, user, time) in steps {
            let run = try pm.run(arguments, ["PM_USER": user, "PM_NOW": time])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
    }

    /// Synced once with a shared folder, two changes made since, and the
    /// folder gone (its share unmounted).
    func offline() throws {
        let folder = pm.home.file("Sync/team-board")
        for arguments in [["remote", "add", folder], ["sync"], ["add", "Book the room"], ["move", "3f2a", "doing"]] {
            let run = try pm.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        try FileManager.default.moveItem(atPath: folder, toPath: pm.home.file("Sync/unmounted"))
    }

    /// Runs a shown command line (`LANG=… pm …`) and returns the lines it
    /// printed, this run's home shown as the README's.
    func run(_ line: Substring) throws -> [String] {
        let (environment, arguments) = try parse(line)
        if arguments.first == "board" { return try board(environment) }
        let run = try pm.run(arguments, environment)
        let text = (run.stdout + run.stderr).replacingOccurrences(of: pm.home.path, with: ReadmeExampleTests.shownHome)
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    func status(_ line: Substring) throws -> (Int32, String) {
        let (environment, arguments) = try parse(line)
        let run = try pm.run(arguments, environment)
        return (run.status, run.stdout + run.stderr)
    }

    /// `pm board` in a terminal of 80 columns by 14 lines, as it first shows.
    func board(_ environment: [String: String]) throws -> [String] {
        try Self.boardScreen(pm, language: environment["LANG"] ?? "en_US.UTF-8", extra: environment)
    }

    static func boardScreen(_ pm: PMBinary, language: String, extra: [String: String] = [:]) throws -> [String] {
        let session = try BoardTmuxTests.Session(pm: pm, width: 80, height: 14, language: language, extra: extra)
        defer { session.close() }
        // Drawn, and past the sync it starts on opening.
        _ = session.waitFor(8) { $0.contains("? ") && $0.contains("q ") && !$0.contains("↻") }
        var lines = session.screen.components(separatedBy: "\n")
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `A=1 B=2 pm x 'y z'` → the variables and pm's arguments.
    func parse(_ line: Substring) throws -> ([String: String], [String]) {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var started = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                started = true
            } else if character == " " {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
            }
        }
        if started || !word.isEmpty { words.append(word) }
        words = words.map { $0.hasPrefix("~/") ? pm.home.path + $0.dropFirst() : $0 }
        var environment: [String: String] = [:]
        while let first = words.first, let equals = first.firstIndex(of: "="), first != "pm" {
            environment[String(first[..<equals])] = String(first[first.index(after: equals)...])
            words.removeFirst()
        }
        guard words.first == "pm" else { throw WorldError.unparsable(String(line)) }
        return (environment, Array(words.dropFirst()))
    }
}
