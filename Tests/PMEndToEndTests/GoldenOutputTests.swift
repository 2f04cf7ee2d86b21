import Foundation
import Testing

/// `pm list` and `pm show` in en, fr and ko, with a fixed clock, zone and
/// width, compared with the files in Fixtures/. Regenerate them with
/// `PM_UPDATE_GOLDEN=1 swift test --filter GoldenOutputTests`.
@Suite struct GoldenOutputTests {
    static let languages = ["en": "en_US.UTF-8", "fr": "fr_FR.UTF-8", "ko": "ko_KR.UTF-8"]

    static let cases: [(name: String, arguments: [String], extra: [String: String])] = [
        ("list-100", ["list", "--color", "never"], ["COLUMNS": "100"]),
        ("list-60-color", ["list", "--color", "always"], ["COLUMNS": "60"]),
        ("list-40-stacked", ["list"], ["COLUMNS": "40"]),
        ("list-doing", ["list", "--state", "doing"], [:]),
        ("show-body", ["show", "3f2a"], ["TZ": "Asia/Seoul"]),
        ("show-escaped", ["show", "b2c3", "--color", "never"], [:]),
    ]

    @Test(arguments: ["en", "fr", "ko"])
    func outputsMatchTheGoldenFiles(language: String) throws {
        let update = ProcessInfo.processInfo.environment["PM_UPDATE_GOLDEN"] == "1"
        let pm = PMBinary(language: Self.languages[language] ?? "C")
        try pm.useSampleBoard()
        let fixtures = PMBinary.packageRoot.appendingPathComponent("Tests/PMEndToEndTests/Fixtures/\(language)")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        for golden in Self.cases {
            let run = try pm.run(golden.arguments, golden.extra)
            #expect(run.status == 0, "\(golden.name): \(run.stderr)")
            let file = fixtures.appendingPathComponent(golden.name + ".txt")
            if update {
                try Data(run.stdout.utf8).write(to: file)
                continue
            }
            let expected = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            #expect(run.stdout == expected, "\(language)/\(golden.name) differs; regenerate with PM_UPDATE_GOLDEN=1 if intended")
        }
    }
}
