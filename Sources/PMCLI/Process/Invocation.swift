import FoundationEssentials
import PMLocalization
import Synchronization

/// One run of pm: what a process gives a program — its arguments, its
/// variables and its three descriptors — and nothing else. `pm` runs one
/// per process; the test suite runs many side by side in its own process
/// (``PMMain/run(_:)``), each reading only what its invocation holds.
public struct Invocation: Sendable {
    /// The arguments after the program's name, as bytes (they may not be UTF-8).
    public var arguments: [[UInt8]]
    /// The environment (the process's is read when first asked for: `pm
    /// --version` reads none).
    public var variables: [String: String] {
        get { given ?? Self.processVariables }
        set { given = newValue }
    }
    private var given: [String: String]?
    private static let processVariables = ProcessInfo.processInfo.environment
    /// Standard input, output and error.
    public var input: Int32
    public var output: Int32
    public var error: Int32
    /// Whether this run is the whole process: then what a one-shot command
    /// reads may stay until exit (``UntilExit``), never in a shared process.
    var ownsProcess = false

    public init(arguments: [[UInt8]], variables: [String: String], input: Int32, output: Int32, error: Int32) {
        self.arguments = arguments
        self.given = variables
        self.input = input
        self.output = output
        self.error = error
    }

    /// The process's own: its environment and descriptors.
    static func process(arguments: [[UInt8]]) -> Invocation {
        var invocation = Invocation(arguments: arguments, variables: [:], input: 0, output: 1, error: 2)
        (invocation.given, invocation.ownsProcess) = (nil, true)
        return invocation
    }

    /// The localizer for these variables' language: with the built-in
    /// tables, built once per language and shared (they never change); with
    /// a translator's folder, read afresh (they change between runs).
    func makeLocalizer() -> Localizer {
        let override = variables["PM_LOCALIZATION_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let chain = LanguageResolver.messageChain(environment: variables)
        guard override == nil else { return Localizer(chain: chain, source: TableSource(overrideDirectory: override)) }
        return CurrentRun.shared(languageKey ?? "", "localizer") { Localizer(chain: chain) }
    }

    /// What texts in the reader's language depend on: the language chain,
    /// when only the built-in tables are read (nil: a translator's folder,
    /// which may change between runs).
    var languageKey: String? {
        guard variables["PM_LOCALIZATION_DIR"].flatMap({ $0.isEmpty ? nil : $0 }) == nil else { return nil }
        return LanguageResolver.messageChain(environment: variables).candidates.joined(separator: ",")
    }
}

/// The run in progress on this thread of work: its invocation, and the
/// localizer made once for it, when first needed (`pm --version` needs none).
final class CurrentRun: Sendable {
    let invocation: Invocation
    private let made = Mutex<Localizer?>(nil)

    init(_ invocation: Invocation) {
        self.invocation = invocation
    }

    var localizer: Localizer {
        made.withLock { made in
            if let made { return made }
            let localizer = invocation.makeLocalizer()
            made = localizer
            return localizer
        }
    }

    /// While set, the commands' help texts are not asked of the tables: a
    /// command line parsed to be run never shows them, and they were a
    /// tenth of a `pm add` (three table look-ups and the localizer made for
    /// them, when an add prints no word).
    private let parsingToRun = Atomic<Bool>(false)

    /// `body`'s result, with help texts left empty while it runs.
    func parsingToRun<Result>(_ body: () -> Result) -> Result {
        parsingToRun.store(true, ordering: .relaxed)
        defer { parsingToRun.store(false, ordering: .relaxed) }
        return body()
    }

    /// A help text: from the tables, or empty while a command line is parsed to be run.
    func helpText(_ key: L10nKey) -> String {
        parsingToRun.load(ordering: .relaxed) ? "" : localizer.string(key)
    }

    @TaskLocal static var value: CurrentRun?

    /// A value made from the built-in tables for this run's language (the
    /// command tree with its help texts), made once per language and kept.
    func shared<Value: Sendable>(_ name: String, make: () -> Value) -> Value {
        guard let key = invocation.languageKey else { return make() }
        return Self.shared(key, name, make: make)
    }

    private static let kept = Mutex<[String: any Sendable]>([:])

    static func shared<Value: Sendable>(_ key: String, _ name: String, make: () -> Value) -> Value {
        let slot = key + "\u{0}" + name
        if let known = kept.withLock({ $0[slot] }) as? Value { return known }
        let made = make()
        return kept.withLock { cache in
            if let known = cache[slot] as? Value { return known }
            cache[slot] = made
            return made
        }
    }

    /// The run in progress, else the process's own (`pm` itself, or a test
    /// that renders help outside any run). `pm` never asks the task-local:
    /// reading one starts the concurrency runtime (half a megabyte of
    /// `pm --version`'s memory).
    static var now: CurrentRun {
        guard runsInProcess.load(ordering: .relaxed) else { return processRun }
        return value ?? processRun
    }
    private static let processRun = CurrentRun(.process(arguments: []))
    /// Whether a run has been made inside this process (``PMMain/run(_:)``).
    static let runsInProcess = Atomic<Bool>(false)
}
