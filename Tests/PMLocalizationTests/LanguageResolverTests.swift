import Testing

@testable import PMLocalization

@Suite struct LanguageResolverTests {
    func chain(_ environment: [String: String]) -> [String] {
        LanguageResolver.messageChain(environment: environment).candidates
    }

    @Test func theFirstNonEmptyOfLCAllLCMessagesLangWins() {
        #expect(chain(["LANG": "fr_FR.UTF-8"]) == ["fr_FR", "fr"])
        #expect(chain(["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"]) == ["ko_KR", "ko"])
        #expect(chain(["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8", "LC_ALL": "en_GB.UTF-8"]) == ["en_GB", "en"])
        #expect(chain(["LANG": "fr_FR.UTF-8", "LC_ALL": ""]) == ["fr_FR", "fr"])
    }

    @Test func cAndPOSIXMeanEnglishAndIgnoreLANGUAGE() {
        #expect(chain(["LANG": "C", "LANGUAGE": "fr"]) == [])
        #expect(chain(["LC_ALL": "POSIX", "LANGUAGE": "ko:fr", "LANG": "fr_FR.UTF-8"]) == [])
        #expect(chain([:]) == [])
        #expect(chain(["LANGUAGE": "fr"]) == [])
    }

    @Test func cUTF8HonoursLANGUAGE() {
        #expect(chain(["LANG": "C.UTF-8", "LANGUAGE": "fr"]) == ["fr"])
    }

    @Test func languageComesFirstThenTheLocale() {
        #expect(chain(["LANG": "ko_KR.UTF-8", "LANGUAGE": "xx:fr_CA:fr"]) == ["xx", "fr_CA", "fr", "ko_KR", "ko"])
    }

    @Test func namesAreNormalized() {
        #expect(chain(["LANG": "fr_FR.UTF-8@euro"]) == ["fr_FR", "fr"])
        #expect(chain(["LANG": "de-DE"]) == ["de_DE", "de"])
        #expect(chain(["LANG": "ko"]) == ["ko"])
        #expect(chain(["LANG": "../../etc"]) == [])
    }

    @Test func datesFollowLCAllLCTimeLang() {
        #expect(LanguageResolver.formatLocale(environment: ["LANG": "en_US.UTF-8", "LC_TIME": "fr_FR.UTF-8"]) == "fr_FR")
        #expect(LanguageResolver.formatLocale(environment: ["LC_ALL": "ko_KR.UTF-8", "LC_TIME": "fr_FR.UTF-8"]) == "ko_KR")
        #expect(LanguageResolver.formatLocale(environment: ["LC_MESSAGES": "fr_FR.UTF-8"]) == "en_US")
        #expect(LanguageResolver.formatLocale(environment: ["LANG": "C"]) == "en_US")
    }
}

@Suite struct LocalizerTests {
    func localizer(_ languages: [String], override: String? = nil) -> Localizer {
        Localizer(chain: LanguageChain(languages), source: TableSource(overrideDirectory: override))
    }

    @Test func eachShippedLanguageHasItsColumnNames() {
        #expect(localizer([]).string(.columnTodo) == "TODO")
        #expect(localizer([]).string(.columnDoing) == "DOING")
        #expect(localizer([]).string(.columnDone) == "DONE")
        #expect(localizer(["fr_FR", "fr"]).string(.columnDoing) == "EN COURS")
        #expect(localizer(["ko_KR", "ko"]).string(.columnDoing) == "진행 중")
        #expect(localizer(["xx", "ko"]).language == "ko")
    }

    @Test func placeholdersAreFilledInEachLanguagesOrder() {
        let args: [MessageArgument] = [.text("T"), .text("A"), .text("B")]
        #expect(localizer([]).string(.messageMoved, arguments: args) == "Moved 'T' from A to B.")
        #expect(localizer(["ko"]).string(.messageMoved, arguments: args) == "'T'를 A에서 B로 옮겼습니다.")
    }

    @Test func pluralsFollowEachLanguagesRules() {
        #expect(localizer([]).plural(.listSummary, count: 1) == "1 task")
        #expect(localizer([]).plural(.listSummary, count: 0) == "0 tasks")
        #expect(localizer(["fr"]).plural(.listSummary, count: 0) == "0 tâche")
        #expect(localizer(["fr"]).plural(.listSummary, count: 2) == "2 tâches")
        #expect(localizer(["ko"]).plural(.listSummary, count: 1) == "작업 1개")
        // CLDR's `many` of French: "un million de tâches".
        #expect(localizer(["fr"]).plural(.listSummary, count: 1_000_000).hasSuffix("000 de tâches"))
        #expect(localizer(["fr"]).plural(.listSummary, count: 1_000_001).hasSuffix("001 tâches"))
    }

    @Test func everyCatalogueKeyIsInEveryShippedTableAndNothingElse() throws {
        let plain = Set(L10nKey.allCases.map(\.rawValue))
        let plurals = Set(L10nPluralKey.allCases.map(\.rawValue))
        let english = try shipped("en")
        for language in TableSource.shippedLanguages {
            let (table, dict) = try shipped(language)
            #expect(table.problems.isEmpty && dict.problems.isEmpty, "\(language): \(table.problems) \(dict.problems)")
            let keys = Set(table.values.keys)
            #expect(keys == plain, "\(language): \(keys.symmetricDifference(plain).sorted())")
            #expect(Set(dict.entries.map(\.key)) == plurals, "\(language)")
            let elisions = Grammar.elisions(table.values["grammar.elisions"])
            for (key, value) in table.values {
                let theirs = try MessageFormat(parsing: try #require(english.0.values[key], "\(key)"))
                #expect(
                    try MessageFormat(parsing: value, elisions: elisions).signature == theirs.signature, "\(language) \(key)")
            }
            let englishForms = Dictionary(
                english.1.entries.flatMap(\.suffixedForms).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            for entry in dict.entries {
                let forms = Dictionary(entry.suffixedForms.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
                #expect(forms[entry.key + ".other"] != nil, "\(language) lacks \(entry.key) other")
                let theirs = try MessageFormat(parsing: try #require(englishForms[entry.key + ".other"]))
                for (key, value) in forms {
                    let mine = try MessageFormat(parsing: value, countMayBeOmitted: true, elisions: elisions)
                    #expect(mine.signature == theirs.signature, "\(language) \(key)")
                }
            }
        }
    }

    /// A shipped language's `.strings` and `.stringsdict`, parsed.
    func shipped(_ language: String) throws -> (ParsedStringsTable, ParsedStringsDict) {
        let table = StringsTableParser.parse(bytes: try #require(TableSource.shippedBytes(for: language)))
        let dict = StringsDictParser.parse(bytes: try #require(TableSource.shippedPluralBytes(for: language)))
        return (table, dict)
    }

    /// The tables pm reads at run time were parsed when it was built: they
    /// must say exactly what the strict parsers read in the shipped bytes
    /// (what `pm l10n check` checks), every key found by the search, each
    /// plural as one key per category.
    @Test func theTablesParsedAtBuildTimeAreTheShippedBytesParsed() throws {
        for language in TableSource.shippedLanguages {
            let (table, dict) = try shipped(language)
            var parsed = table.values
            for entry in dict.entries {
                for (key, value) in entry.suffixedForms { parsed[key] = value }
            }
            let built = try #require(EmbeddedTables.entries[language])
            #expect(built.count == 2 * parsed.count, "\(language)")
            let values = TableValues(sorted: built)
            for (key, value) in parsed { #expect(values[key] == value, "\(language) \(key)") }
            #expect(values["no.such.key"] == nil && values[""] == nil && values["~"] == nil)
        }
    }

    @Test func aMismatchedOrMissingTranslationFallsBackToEnglishKeyByKey() throws {
        let dir = try makeOverride([
            "fr": "\"column.todo\" = \"%d %n %s\";\n\"message.moved\" = \"%1$d de %2$@\";\n\"column.done\" = \"FINI\";\n"
        ])
        let l = localizer(["fr"], override: dir)
        #expect(l.string(.columnTodo) == "À FAIRE")
        #expect(l.string(.columnDone) == "FINI")
        #expect(l.string(.messageMoved, .text("T"), .text("A"), .text("B")) == "Tâche « T » déplacée d’A vers B.")
        // A language pm does not ship: the translator's key, English for the rest.
        let sv = localizer(["sv"], override: try makeOverride(["sv": "\"column.todo\" = \"ATT GÖRA\";\n"]))
        #expect(sv.string(.columnTodo) == "ATT GÖRA")
        #expect(sv.string(.columnDone) == "DONE")
    }

    /// A localizer keeps the formats it parsed and the plural rules it
    /// opened: asked again and again (a history of many lines), in any order
    /// of keys, counts and languages, it says what a fresh one says, and a
    /// translation refused once stays refused.
    @Test func aLocalizerAskedAgainSaysWhatAFreshOneSays() throws {
        let dir = try makeOverride(["fr": "\"column.todo\" = \"%d %n %s\";\n\"column.done\" = \"FINI\";\n"])
        for languages in [[], ["fr"], ["ko"], ["xx", "fr"], ["fr", "ko"]] {
            let kept = localizer(languages, override: dir)
            for _ in 0..<3 {
                for count in [0, 1, 2, 5, 21, 1, 0, 1_000_000] {
                    let fresh = localizer(languages, override: dir).plural(.listSummary, count: count)
                    #expect(kept.plural(.listSummary, count: count) == fresh, "\(languages) \(count)")
                }
                for key in [L10nKey.columnTodo, .columnDone, .columnDoing] {
                    #expect(kept.string(key) == localizer(languages, override: dir).string(key), "\(languages) \(key)")
                }
            }
        }
        let french = localizer(["fr"], override: dir)
        for _ in 0..<2 {
            #expect(french.string(.columnTodo) == "À FAIRE")
            #expect(french.string(.columnDone) == "FINI")
            #expect(french.plural(.listSummary, count: 1) == "1 tâche")
            #expect(french.plural(.listSummary, count: 3) == "3 tâches")
        }
    }

    func makeOverride(_ tables: [String: String]) throws -> String {
        let base = "/tmp/pm-l10n-\(UInt64.random(in: 0...UInt64.max))"
        for (language, text) in tables {
            let dir = "\(base)/\(language).lproj"
            try createDirectory(dir)
            try text.write(toFile: dir + "/Localizable.strings")
        }
        return base
    }
}
