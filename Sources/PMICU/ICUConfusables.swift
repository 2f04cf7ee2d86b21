internal import CICU

/// Names a reader could take for one another (UTS #39, through the system's ICU).
public enum ICUConfusables {
    /// The skeleton of `text`: two names a reader could take for each other
    /// (`аlice` with a Cyrillic а, and `alice`) have the same one. Nil
    /// without ICU.
    public static func skeleton(_ text: String) -> String? {
        let source = Array(text.utf16)
        var capacity = source.count * 4 + 16
        while true {
            var result = [UInt16](repeating: 0, count: capacity)
            var status = U_ZERO_ERROR
            let length = pm_uspoof_skeleton(source, Int32(source.count), &result, Int32(capacity), &status)
            if status == U_BUFFER_OVERFLOW_ERROR, Int(length) > capacity {
                capacity = Int(length)
                continue
            }
            guard pm_u_success(status) == 1 else { return nil }
            return String(decoding: result[0..<Int(length)], as: UTF16.self)
        }
    }

    /// For each of `names` not among `known`, the first known name it could
    /// be taken for (a different name with the same skeleton).
    public static func lookalikes(of names: [String], among known: Set<String>) -> [(name: String, like: String)] {
        let fresh = names.filter { !known.contains($0) }
        guard !fresh.isEmpty, !known.isEmpty else { return [] }
        var bySkeleton: [String: String] = [:]
        for name in known.sorted() {
            guard let skeleton = skeleton(name) else { return [] }
            if bySkeleton[skeleton] == nil { bySkeleton[skeleton] = name }
        }
        return fresh.compactMap { name in
            guard let skeleton = skeleton(name), let like = bySkeleton[skeleton], like != name else { return nil }
            return (name, like)
        }
    }
}
