import FoundationEssentials
import PMCore
import PMICU
import PMLocalization
import PMViews

/// Who reads a page: their language (the switch's cookie, else the
/// browser's `Accept-Language`) and time zone (the browser's, in a cookie),
/// with the same tables, grammar and ICU dates as the terminal.
struct WebReader {
    let localizer: Localizer
    let formatLocale: String
    let zone: Zone
    /// The zone's name as the browser gave it (the page checks it against its own).
    let zoneName: String?
    let style: TextStyle

    init(localizer: Localizer, formatLocale: String, zone: Zone, zoneName: String?) {
        self.localizer = localizer
        self.formatLocale = formatLocale
        self.zone = zone
        self.zoneName = zoneName
        style = TextStyle(color: false, formatLocale: formatLocale, zone: zone)
    }

    /// `en`, `fr`, `ko`: the page's `lang`.
    var languageTag: String { String(localizer.language.prefix { $0.isLetter && $0.isASCII }).lowercased() }

    /// Today in the reader's zone.
    func today(_ now: Date) -> CivilDate { Timestamp.civilDate(of: now, in: zone) }
}

/// Makes readers, keeping one localizer per language (a table is parsed once).
final class WebReaders {
    private var localizers: [String: Localizer] = [:]
    /// The zone when the browser has not said its own.
    let fallbackZone: Zone

    init(fallbackZone: Zone) {
        self.fallbackZone = fallbackZone
    }

    /// The reader of `request`.
    func reader(for request: WebRequest, cookieLanguage: String?) -> WebReader {
        let chosen = cookieLanguage.flatMap(Self.shipped)
        let tags = chosen.map { [$0] } ?? Self.acceptedLanguages(request.headers["accept-language"] ?? "")
        // Only languages pm has a table for: a reader's header can name any
        // number of others, and each would be kept as a localizer.
        let shipped = Set(TableSource.shippedLanguages)
        let chain = LanguageChain(Self.chain(tags).candidates.filter { shipped.contains(String($0.prefix { $0 != "_" })) })
        let key = chain.candidates.joined(separator: ":")
        let localizer = localizers[key] ?? Localizer(chain: chain)
        localizers[key] = localizer
        let format = tags.first.flatMap { ICULocaleID.normalized($0) } ?? "en_US"
        let zoneName = request.cookies["pm_zone"].flatMap { FormFields.percentDecoded(Substring($0)) }.flatMap(Self.zoneName)
        let zone = zoneName.map { Zone(tz: $0) } ?? fallbackZone
        return WebReader(localizer: localizer, formatLocale: format, zone: zone, zoneName: zoneName)
    }

    /// A shipped language's code, if `text` names one (the switch's value).
    static func shipped(_ text: String) -> String? {
        TableSource.shippedLanguages.first { $0 == text }
    }

    /// The languages of an `Accept-Language` header, best first (`q=0` ones dropped).
    static func acceptedLanguages(_ header: String) -> [String] {
        var ranked: [(tag: String, weight: Double, order: Int)] = []
        for (order, part) in header.split(separator: ",").prefix(20).enumerated() {
            let fields = part.split(separator: ";")
            guard let first = fields.first else { continue }
            let tag = first.trimmingSpaces
            guard !tag.isEmpty, tag.count <= 35, tag != "*",
                tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { continue }
            var weight = 1.0
            for field in fields.dropFirst() {
                let pair = field.trimmingSpaces
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)) { weight = value }
            }
            if weight > 0 { ranked.append((tag, weight, order)) }
        }
        return ranked.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.order < $1.order }.map(\.tag)
    }

    /// The tables to try for these languages: up to the first English one,
    /// since English is what every lookup falls back to (`en, fr` reads English).
    static func chain(_ tags: [String]) -> LanguageChain {
        var names: [String] = []
        for tag in tags {
            let expanded = expand(tag)
            if expanded.last == "en" { break }
            for name in expanded where !names.contains(name) { names.append(name) }
        }
        return LanguageChain(names)
    }

    /// `fr-CA` → [`fr_CA`, `fr`].
    static func expand(_ tag: String) -> [String] {
        guard let id = ICULocaleID.normalized(tag) else { return [] }
        let language = id.split(separator: "_").first.map(String.init) ?? id
        return id == language ? [id] : [id, language]
    }

    /// A zone name as browsers give it (`Europe/Paris`, `UTC`): letters,
    /// digits, `/`, `_`, `+`, `-`, at most 64 of them; nil for anything else.
    static func zoneName(_ text: String) -> String? {
        guard !text.isEmpty, text.count <= 64, !text.hasPrefix("/"), !text.contains(".."),
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) })
        else { return nil }
        return text
    }
}
