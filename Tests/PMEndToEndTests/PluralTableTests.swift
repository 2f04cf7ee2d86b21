import Foundation
import Testing

/// Plurals kept as translation platforms keep them: a `Localizable.stringsdict`
/// beside each table, checked by `pm l10n check` form by form against the
/// categories each language's rules need (from ICU), English's placeholders,
/// and a count left out only where a form's category holds that count alone.
@Suite struct PluralTableTests {
    let tables = TranslatorTests()

    @Test func eachPluralFaultIsFoundAtItsEntry() throws {
        let pm = PMBinary()
        let dir = try tables.copyOfTables(pm)
        let fr = dir + "/fr.lproj/Localizable.stringsdict"
        let ko = dir + "/ko.lproj/Localizable.stringsdict"
        let en = dir + "/en.lproj/Localizable.stringsdict"
        let entry = { (path: String, key: String) in try tables.lineNumber(path, "\t<key>\(key)</key>") }
        let (summary, overdue, added, edited) = (
            try entry(fr, "list.summary"), try entry(fr, "list.overdue"), try entry(fr, "news.added"),
            try entry(fr, "news.edited")
        )
        let movedInEnglish = try entry(en, "news.moved")
        try tables.edit(fr) { lines in
            func form(_ line: Int, _ category: String) -> Int {
                lines[line...].firstIndex { $0.hasSuffix("<key>\(category)</key>") } ?? 0
            }
            lines[form(summary, "one") + 1] = "\t\t\t<string>une seule tâche</string>"
            lines[form(added, "other") + 1] = "\t\t\t<string>%1$@ ajoutées</string>"
            lines[edited + 2] = "\t\t<string>%#@a@ %#@b@</string>"
            lines.insert("\t\t\t<key>several</key><string>x</string>", at: form(overdue, "other"))
            lines.insert("\t\t\t<key>two</key><string>%1$d tâches</string>", at: form(overdue, "other"))
            // news.moved taken out whole; a plural English does not have put in.
            let moved = lines.firstIndex { $0 == "\t<key>news.moved</key>" } ?? 0
            let end = lines[moved...].firstIndex { $0 == "\t</dict>" } ?? moved
            lines[moved...end] = ["\t<key>list.summery</key>"] + lines[(moved + 1)...end]
        }
        // Where the entries are now (a line was put in above some).
        let (typo, summaryNow, addedNow, editedNow) = (
            try entry(fr, "list.summery"), try entry(fr, "list.summary"), try entry(fr, "news.added"),
            try entry(fr, "news.edited")
        )
        let frStrings = dir + "/fr.lproj/Localizable.strings"
        try tables.edit(frStrings) { lines in lines.append("\"list.header.one\" = \"%2$@ (une)\";") }
        let header = try tables.lineNumber(frStrings, "\"list.header.one\"")
        try tables.edit(ko) { lines in lines.removeLast(3) }
        let run = try pm.run(["l10n", "check", dir])
        #expect(run.status == 65)
        let expected = [
            "\(fr):\(summaryNow): 'list.summary': the 'one' form leaves out the count (%1$d), but fr uses that form for more than one count",
            "\(fr):\(overdue): 'list.overdue' has a form 'several', which is not a plural category",
            "\(fr):\(overdue): 'list.overdue' has a 'two' form, which fr never uses: pm never shows it",
            "\(fr):\(addedNow): 'news.added.other' has placeholders (%1$@) where English has (%1$d)",
            "\(fr):\(editedNow): 'news.edited': the format (NSStringLocalizedFormatKey) must name one variable",
            "\(fr):\(typo): key 'list.summery' is not in English",
            "\(en):\(movedInEnglish): key 'news.moved' is missing in fr",
            "\(frStrings):\(header): 'list.header.one' is a plural form: it belongs in Localizable.stringsdict",
            "\(ko):",
        ]
        for line in expected {
            #expect(run.stdout.contains(line), "missing: \(line)\n\(run.stdout)")
        }
        #expect(run.stdout.contains("not a plural table pm can read"), "\(run.stdout)")
        // A table that does not parse is one problem, not one per plural it lacks.
        #expect(!run.stdout.contains("is missing in ko"), "\(run.stdout)")
        // In French too.
        let french = try pm.run(["l10n", "check", dir], ["LANG": "fr_FR.UTF-8"])
        #expect(french.stdout.contains("omet le nombre (%1$d)"), "\(french.stdout)")
        // At run time the form that would say "une seule tâche" of 0 tasks is not used.
        let env = ["PM_LOCALIZATION_DIR": dir, "LANG": "fr_FR.UTF-8"]
        try pm.run(["add", "A"])
        #expect(!(try pm.run(["list"], env).stdout.contains("une seule")))
    }

    /// German's `one` holds 1 alone: "eine Aufgabe" may leave the number out,
    /// and is used for 1 and only 1 — a language added as a folder.
    @Test func aFormWithoutTheCountIsRightWhereItsCategoryHoldsOneCount() throws {
        let pm = PMBinary(language: "de_DE.UTF-8")
        let dir = try tables.copyOfTables(pm)
        try FileManager.default.createDirectory(atPath: dir + "/de.lproj", withIntermediateDirectories: true)
        for file in ["Localizable.strings", "Localizable.stringsdict"] {
            try FileManager.default.copyItem(atPath: dir + "/en.lproj/" + file, toPath: dir + "/de.lproj/" + file)
        }
        let plurals = dir + "/de.lproj/Localizable.stringsdict"
        let summary = try tables.lineNumber(plurals, "\t<key>list.summary</key>")
        try tables.edit(plurals) { lines in
            let one = lines[summary...].firstIndex { $0.hasSuffix("<key>one</key>") } ?? 0
            lines[one + 1] = "\t\t\t<string>eine Aufgabe</string>"
            let other = lines[summary...].firstIndex { $0.hasSuffix("<key>other</key>") } ?? 0
            lines[other + 1] = "\t\t\t<string>%1$d Aufgaben</string>"
        }
        let check = try pm.run(["l10n", "check", dir])
        #expect(check.status == 0, "\(check.stdout)")
        let env = ["PM_LOCALIZATION_DIR": dir]
        #expect(try pm.run(["list"], env).stdout.contains("0 Aufgaben"))
        try pm.run(["add", "Bericht"], env)
        #expect(try pm.run(["list"], env).stdout.contains("eine Aufgabe"))
        try pm.run(["add", "Zweiter"], env)
        #expect(try pm.run(["list"], env).stdout.contains("2 Aufgaben"))
    }
}
