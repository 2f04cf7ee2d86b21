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
        guard allowed, normalized.count <= 32, normalized.first != "_" else { return nil }
        return normalized
    }

    /// Like ``normalized(_:)``, with `en_US` for names that have no language.
    public static func fromPOSIX(_ name: String) -> String {
        normalized(name) ?? "en_US"
    }
}
