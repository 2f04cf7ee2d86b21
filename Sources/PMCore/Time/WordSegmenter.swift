import PMICU

/// Words typed without spaces between them, as Japanese and Chinese are
/// written (and Korean often typed: `다음주금요일`), cut into the words a
/// table knows, so that `3日後`, `明日15時`, `毎週月曜日` read as `3日 後`,
/// `明日 15時`, `毎週 月曜日` do. Only stretches that hold a wide character
/// are cut (a language written with spaces keeps its words as typed); which
/// words there are comes from the tables, never from code.
public enum WordSegmenter {
    /// `text` with full-width letters, digits and spaces as their ASCII forms
    /// (`３日後` is `3日後`, an ideographic space a space), and a space
    /// between the words of each space-free stretch with a wide character:
    /// digits apart from the rest, and the rest cut into the fewest words of
    /// `vocabulary` (folded with `fold`) that cover it, else kept whole.
    public static func spaced(_ text: String, vocabulary: () -> Set<String>, fold: (String) -> String) -> String {
        words(text, vocabulary: vocabulary, fold: fold).map(\.word).joined(separator: " ")
    }

    /// The words of `text` as ``spaced(_:vocabulary:fold:)`` cuts them, each
    /// with whether it was typed right after the one before (no space):
    /// what ``typed(_:)`` joins back as it was typed.
    public static func words(_ text: String, vocabulary: () -> Set<String>, fold: (String) -> String) -> [(
        word: String, glued: Bool
    )] {
        let narrow = String(String.UnicodeScalarView(text.unicodeScalars.map(narrowed)))
        let isWide = { (scalar: Unicode.Scalar) in TerminalCells.width(of: scalar) == 2 }
        let chunks = narrow.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard narrow.unicodeScalars.contains(where: isWide) else { return chunks.map { ($0, false) } }
        let known = vocabulary()
        let longest = known.map(\.count).max() ?? 0
        var result: [(word: String, glued: Bool)] = []
        for chunk in chunks {
            guard chunk.unicodeScalars.contains(where: isWide) else {
                result.append((chunk, false))
                continue
            }
            // Words with digits in them (`第2`) first; else digits apart from the rest.
            var pieces: [String] = cut(Array(fold(chunk)), vocabulary: known, longest: longest) ?? []
            for run in pieces.isEmpty ? runs(of: chunk) : [] {
                let folded = fold(run)
                if run.first?.isASCII == true || known.contains(folded) {
                    pieces.append(run)
                } else {
                    pieces += cut(Array(folded), vocabulary: known, longest: longest) ?? [run]
                }
            }
            result += pieces.enumerated().map { ($0.element, $0.offset > 0) }
        }
        return result
    }

    /// Words joined as they were typed: a space only where there was one.
    public static func typed(_ words: some Collection<(word: String, glued: Bool)>) -> String {
        var text = ""
        for (index, (word, glued)) in words.enumerated() { text += (index > 0 && !glued ? " " : "") + word }
        return text
    }

    /// A full-width form (U+FF01…U+FF5E) as its ASCII one, an ideographic space as a space.
    static func narrowed(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar == "\u{3000}" { return " " }
        guard (0xFF01...0xFF5E).contains(scalar.value) else { return scalar }
        return Unicode.Scalar(scalar.value - 0xFF01 + 0x21) ?? scalar
    }

    /// Digits, ASCII letters and the rest, each stretch apart (`15時30分`:
    /// `15`, `時`, `30`, `分`; `3pm` stays whole).
    static func runs(of chunk: String) -> [String] {
        var runs: [String] = []
        var current = ""
        var kind = 0
        for character in chunk {
            let next = character.isASCII && character.isNumber ? 1 : character.isASCII ? 2 : 3
            if !current.isEmpty, next != kind, !(kind == 1 && next == 2), !(kind == 2 && next == 1) {
                runs.append(current)
                current = ""
            }
            current.append(character)
            kind = next
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// `run` as the fewest words of `vocabulary` that cover it, in order;
    /// nil when no such cutting covers all of it.
    static func cut(_ run: [Character], vocabulary: Set<String>, longest: Int) -> [String]? {
        // A date is a few words: a longer stretch is no date, and is not cut.
        guard !run.isEmpty, run.count <= 64, longest > 0 else { return nil }
        var best = [Int?](repeating: nil, count: run.count + 1)
        var from = [Int](repeating: 0, count: run.count + 1)
        best[0] = 0
        for end in 1...run.count {
            for start in max(0, end - longest)..<end {
                guard let before = best[start], vocabulary.contains(String(run[start..<end])) else { continue }
                if best[end].map({ before + 1 < $0 }) ?? true {
                    best[end] = before + 1
                    from[end] = start
                }
            }
        }
        guard best[run.count] != nil else { return nil }
        var pieces: [String] = []
        var end = run.count
        while end > 0 {
            pieces.append(String(run[from[end]..<end]))
            end = from[end]
        }
        return pieces.reversed()
    }
}
