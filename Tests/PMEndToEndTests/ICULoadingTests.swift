import Foundation
import PMTestSupport
import Testing

/// pm links no ICU: it loads the system's at run time, only for commands
/// that format or compare text, and without one it still works in an
/// invariant mode (ISO dates, simple plural rules) and says once how to get
/// full language support.
@Suite struct ICULoadingTests {
    /// A folder with no ICU in it: as on a system without one.
    static let noICU = TemporaryDirectory()

    /// Where this system's ICU is (the folder of `libicuuc.so.N`).
    static func systemICUFolder() throws -> String {
        for folder in [
            "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
        ] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if names.contains(where: { $0.hasPrefix("libicuuc.so.") }) { return folder }
        }
        throw CocoaError(.fileNoSuchFile)
    }

    func board(_ language: String) throws -> PMBinary {
        let pm = PMBinary(language: language)
        for (title, due) in [("Écrire le rapport", "2026-12-01"), ("회의 준비", "2027-06-30"), ("Plan", "2026-11-25")] {
            #expect(try pm.run(["add", title, "--due", due]).status == 0)
        }
        return pm
    }

    @Test func theBinaryLinksNoICU() throws {
        let text = String(decoding: try runChild("/usr/bin/ldd", [PMBinary.path]).stdout, as: UTF8.self)
        #expect(text.contains("libc.so"), "\(text)")
        #expect(!text.contains("libicu"), "\(text)")
    }

    @Test(arguments: ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"])
    func withoutICUDatesAreISOAndPmSaysHowToGetIt(language: String) throws {
        let pm = try board(language)
        let full = try pm.run(["list"])
        let invariant = try pm.run(["list"], ["PM_ICU_LIBRARY_PATH": Self.noICU.path])
        #expect(full.status == 0 && invariant.status == 0)
        #expect(full.stderr.isEmpty)
        #expect(!full.stdout.contains("2026-12-01"), "ICU's own date form: \(full.stdout)")
        #expect(invariant.stdout.contains("2026-12-01") && invariant.stdout.contains("2027-06-30"), "\(invariant.stdout)")
        // The one line, in the reader's language, naming the date form it falls back to.
        let notice = invariant.stderr.split(separator: "\n")
        #expect(notice.count == 1 && invariant.stderr.contains("2026-12-01") && invariant.stderr.contains("libicu"))
        let word = ["en_US.UTF-8": "Install", "fr_FR.UTF-8": "Installez", "ko_KR.UTF-8": "설치하세요"][language] ?? "?"
        #expect(invariant.stderr.contains(word), "\(invariant.stderr)")
        // The same cards, with the same columns lined up (Hangul takes two cells).
        #expect(full.stdout.split(separator: "\n").count == invariant.stdout.split(separator: "\n").count)
        #expect(invariant.stdout.contains("회의 준비"))
        // Once per person: the next command without ICU says nothing more.
        let again = try pm.run(["list"], ["PM_ICU_LIBRARY_PATH": Self.noICU.path])
        #expect(again.stdout == invariant.stdout && again.stderr.isEmpty, "\(again.stderr)")
        // Asked for on purpose, the invariant mode is quiet.
        let chosen = try pm.run(["list"], ["PM_ICU_VERSION": "none"])
        #expect(chosen.stdout == invariant.stdout && chosen.stderr.isEmpty)
    }

    /// The package named is this system's, from /etc/os-release.
    @Test func theNoticeNamesThisSystemsPackage() throws {
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let expected: String? =
            release.contains("ID=debian") && release.contains("VERSION_ID=\"12\"")
            ? "libicu72" : release.contains("ID=debian") && release.contains("VERSION_ID=\"13\"") ? "libicu76" : nil
        let pm = try board("en_US.UTF-8")
        let run = try pm.run(["list"], ["PM_ICU_LIBRARY_PATH": Self.noICU.path])
        if let expected { #expect(run.stderr.contains("Install the \(expected) package"), "\(run.stderr)") }
        #expect(run.stderr.contains("once"), "\(run.stderr)")
    }

    /// Forgets that the notice was given, for a test that wants it again.
    static func forgetNotice(_ pm: PMBinary) {
        let state = pm.home.file(".local/state/pm")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? [] where name.hasPrefix("notice-") {
            try? FileManager.default.removeItem(atPath: state + "/" + name)
        }
    }

    @Test func commandsThatFormatNothingNeverLookForICU() throws {
        let pm = try board("fr_FR.UTF-8")
        let missing = ["PM_ICU_LIBRARY_PATH": Self.noICU.path]
        let added = try pm.run(["add", "sans date"], missing)
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added.stderr)")
        // Its short id, as add prints it to a script.
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for arguments in [["move", id, "doing"], ["edit", id, "--title", "renommée"], ["undo"], ["--version"]] {
            let run = try pm.run(arguments, missing)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(arguments): \(run.stderr)")
        }
        // A French date typed without ICU: read by the invariant rules (ISO),
        // and the notice at most once.
        let dated = try pm.run(["add", "datée", "--due", "2026-12-24"], missing)
        #expect(dated.status == 0 && dated.stderr.split(separator: "\n").count <= 1)
        let json = try pm.run(["list", "--json"]).stdout
        #expect(json.contains("2026-12-24") && json.contains("datée"), "\(json)")
    }

    @Test func pluralsWithoutICUFollowTheLanguagesSimpleRules() throws {
        let none = ["PM_ICU_VERSION": "none"]
        let english = PMBinary(language: "en_US.UTF-8")
        let french = PMBinary(language: "fr_FR.UTF-8")
        let korean = PMBinary(language: "ko_KR.UTF-8")
        #expect(try english.run(["list"], none).stdout.contains("0 tasks"))
        #expect(try french.run(["list"], none).stdout.contains("0 tâche"))
        #expect(try korean.run(["list"], none).stdout.contains("작업 0개"))
        for pm in [english, french] { #expect(try pm.run(["add", "one"], none).status == 0) }
        #expect(try english.run(["list"], none).stdout.contains("1 task"))
        #expect(try french.run(["list"], none).stdout.contains("1 tâche"))
        #expect(try english.run(["add", "two"], none).status == 0)
        #expect(try english.run(["list"], none).stdout.contains("2 tasks"))
    }

    @Test func theLibraryFolderAndVersionCanBeNamed() throws {
        let pm = try board("en_US.UTF-8")
        let folder = try Self.systemICUFolder()
        let named = try pm.run(["list"], ["PM_ICU_LIBRARY_PATH": folder])
        #expect(named.stdout == (try pm.run(["list"])).stdout && named.stderr.isEmpty)
        // A version the system does not have, or not a version: the invariant mode, said once.
        for version in ["9999", "seventy"] {
            Self.forgetNotice(pm)
            let run = try pm.run(["list"], ["PM_ICU_VERSION": version])
            #expect(run.status == 0 && run.stdout.contains("2026-12-01") && run.stderr.contains("libicu"), "\(version)")
        }
    }

    /// A folder whose `libicuuc.so.N` of the newest N is not a usable ICU
    /// (symbols of another version): pm tries it, then the next one down.
    @Test func aLibraryOfTheWrongVersionIsPassedOver() throws {
        let folder = try Self.systemICUFolder()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        let major = try #require(
            names.compactMap { name -> Int? in
                guard name.hasPrefix("libicuuc.so."), let dot = name.dropFirst(12).split(separator: ".").first else { return nil }
                return Int(dot)
            }.max())
        let shims = TemporaryDirectory()
        for library in ["libicuuc", "libicui18n"] {
            // Newer-looking names whose symbols carry the real version's suffix.
            try FileManager.default.createSymbolicLink(
                atPath: shims.file("\(library).so.\(major + 20)"), withDestinationPath: "\(folder)/\(library).so.\(major)")
        }
        let pm = try board("en_US.UTF-8")
        let alone = try pm.run(["list"], ["PM_ICU_LIBRARY_PATH": shims.path])
        #expect(alone.stdout.contains("2026-12-01") && alone.stderr.contains("libicu"), "no usable version: invariant")
        for library in ["libicuuc", "libicui18n"] {
            try FileManager.default.createSymbolicLink(
                atPath: shims.file("\(library).so.\(major)"), withDestinationPath: "\(folder)/\(library).so.\(major)")
        }
        let found = try pm.run(["list"], ["PM_ICU_LIBRARY_PATH": shims.path])
        #expect(found.stdout == (try pm.run(["list"])).stdout && found.stderr.isEmpty)
    }
}
