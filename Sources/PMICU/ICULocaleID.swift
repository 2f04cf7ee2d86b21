/// Turns POSIX locale names into ICU locale ids.
public enum ICULocaleID {
    /// `fr_FR.UTF-8@euro` → `fr_FR`, `de-DE` → `de_DE`, `ko` → `ko`; nil for
    /// `C`, `POSIX`, empty or malformed names.
    public static func normalized(_ name: String) -> String? {
        var base = Substring(name)
        if let at = base.firstIndex(of: "@") { base = base[..<at] }
        if let dot = base.firstIndex(of: ".") { base = base[..<dot] }
        let normalized = String(base.map { $0 == "-" ? "_" : $0 })
        if normalized.isEmpty || normalized == "C" || normalized == "POSIX" { return nil }
        // Only ASCII letters, digits and underscores reach ICU.
        let allowed = normalized.unicodeScalars.allSatisfy {
            ($0.value >= 0x41 && $0.value <= 0x5A) || ($0.value >= 0x61 && $0.value <= 0x7A)
                || ($0.value >= 0x30 && $0.value <= 0x39) || $0 == "_"
        }
        guard allowed, normalized.count <= 32, normalized.first != "_", hasLocaleShape(normalized) else { return nil }
        return normalized
    }

    /// Whether `id` has a locale's shape: a language of 2–3 letters (or
    /// 5–8), then a script of 4 letters, a region of 2 letters or 3 digits,
    /// variants of 4–8 letters or digits. ICU 72 crashes in its date
    /// pattern generator on a language of 12 letters (`LANG=xxxxxxxxxxxx`,
    /// a browser's `Accept-Language`): nothing else reaches it.
    static func hasLocaleShape(_ id: String) -> Bool {
        let parts = id.split(separator: "_", omittingEmptySubsequences: false)
        guard let language = parts.first, [2, 3, 5, 6, 7, 8].contains(language.count), language.allSatisfy(\.isLetter)
        else { return false }
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy(\.isLetter) { rest = rest.dropFirst() }
        if let region = rest.first,
            (region.count == 2 && region.allSatisfy(\.isLetter)) || (region.count == 3 && region.allSatisfy(\.isNumber))
        {
            rest = rest.dropFirst()
        }
        return rest.allSatisfy { (4...8).contains($0.count) }
    }

    /// Like ``normalized(_:)``, with `en_US` for names that have no language.
    public static func fromPOSIX(_ name: String) -> String {
        normalized(name) ?? "en_US"
    }
}
