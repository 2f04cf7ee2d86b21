import PMICU

/// The languages to try for messages, best first; English is always the last resort.
public struct LanguageChain: Sendable, Equatable {
    /// Table names to try in order (`fr_CA`, `fr`, `ko`); never includes
    /// English, which every lookup falls back to.
    public var candidates: [String]

    /// A chain of explicit candidates.
    public init(_ candidates: [String]) {
        self.candidates = candidates
    }

    /// English only.
    public static let english = LanguageChain([])
}

/// Chooses languages from the environment the way gettext does (L10N.md).
public enum LanguageResolver {
    /// The message language chain from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`.
    ///
    /// The first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG` is the locale.
    /// When it is unset, `C` or `POSIX`, messages are English and `LANGUAGE`
    /// is ignored (as in gettext). Otherwise each entry of `LANGUAGE`, then the
    /// locale, contributes `ll_CC` then `ll`.
    public static func messageChain(environment: [String: String]) -> LanguageChain {
        let locale = firstNonEmpty(environment, ["LC_ALL", "LC_MESSAGES", "LANG"])
        guard let locale, locale != "C", locale != "POSIX" else { return .english }
        var names: [String] = []
        if let languages = environment["LANGUAGE"], !languages.isEmpty {
            names += languages.split(separator: ":").map(String.init)
        }
        names.append(locale)
        var chain: [String] = []
        for name in names {
            for candidate in expand(name) where !chain.contains(candidate) {
                chain.append(candidate)
            }
        }
        return LanguageChain(chain)
    }

    /// The ICU locale for dates and numbers, from `LC_ALL`, `LC_TIME`, `LANG`.
    public static func formatLocale(environment: [String: String]) -> String {
        ICULocaleID.fromPOSIX(firstNonEmpty(environment, ["LC_ALL", "LC_TIME", "LANG"]) ?? "C")
    }

    /// `fr_FR.UTF-8@euro` → [`fr_FR`, `fr`]; `de-DE` → [`de_DE`, `de`]; `C` → [].
    static func expand(_ name: String) -> [String] {
        guard let id = ICULocaleID.normalized(name) else { return [] }
        let parts = id.split(separator: "_", maxSplits: 1)
        guard let language = parts.first, !language.isEmpty else { return [] }
        return parts.count > 1 ? [id, String(language)] : [String(language)]
    }

    private static func firstNonEmpty(_ environment: [String: String], _ keys: [String]) -> String? {
        for key in keys {
            if let value = environment[key], !value.isEmpty { return value }
        }
        return nil
    }
}
