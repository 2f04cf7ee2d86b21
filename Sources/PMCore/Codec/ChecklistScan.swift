/// A checklist's progress read where it lies, in the layout pm writes
/// (``BoardEncoder``'s items, one a line: `{"done": true, "id": "…",
/// "position": "…", "text": "…"}`): `pm list` shows the progress of
/// every card and never needs the items themselves. Anything else gives
/// nil, and the checklist is decoded (and checked) in full.
enum ChecklistScan {
    static func progress(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (done: Int, total: Int)? {
        var index = start
        func skipBlank() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
        }
        func consume(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }
        /// Past a string's closing quote (escapes passed over).
        func skipString() -> Bool {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return true
                default: index += 1
                }
            }
            return false
        }
        guard consume("[") else { return nil }
        var (done, total) = (0, 0)
        skipBlank()
        if consume("]") { return (0, 0) }
        while true {
            skipBlank()
            guard consume("{\"done\": ") else { return nil }
            let ticked = consume("true")
            guard ticked || consume("false"), consume(", \"id\": \""), index + ItemID.length + 1 <= bytes.count else {
                return nil
            }
            index += ItemID.length
            guard consume("\"") else { return nil }
            if consume(", \"position\": \""), !skipString() { return nil }
            let removed = consume(", \"removed\": true")
            let named = consume(", \"text\": \"")
            if named, !skipString() { return nil }
            guard consume("}") else { return nil }
            if named && !removed {
                total += 1
                if ticked { done += 1 }
            }
            if consume(",") { continue }
            skipBlank()
            return consume("]") ? (done, total) : nil
        }
    }
}
