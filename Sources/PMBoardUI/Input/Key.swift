import PMCore

/// One input event of the interactive board, decoded from the terminal's
/// bytes (DESIGN.md §11). Pure: the driver reads bytes, ``KeyDecoder`` turns
/// them into keys, the reducer turns keys into a new state.
public enum Key: Equatable, Sendable {
    /// A printable character as typed (a Hangul jamo too: see ``KeyMap``).
    case character(Character)
    case up, down, left, right
    case shiftLeft, shiftRight, shiftUp, shiftDown
    case enter, escape, tab, backTab, backspace, delete, insert
    case home, end, pageUp, pageDown
    /// Ctrl plus a letter (`Ctrl-Z` is `.control("z")`).
    case control(Character)
    case mouse(MouseEvent)
    /// Text pasted with bracketed paste: never taken as commands.
    case paste(String)
}

/// An SGR mouse report (`CSI < b ; x ; y M|m`), 0-based cell coordinates.
public struct MouseEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case press, drag, release, wheelUp, wheelDown }
    public var kind: Kind
    public var button: Int
    public var x: Int
    public var y: Int

    public init(kind: Kind, button: Int = 0, x: Int, y: Int) {
        self.kind = kind
        self.button = button
        self.x = x
        self.y = y
    }
}

/// Turns terminal input bytes into keys. Incomplete sequences at the end are
/// kept for the next read; unknown sequences are dropped, never typed.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private var pasting: [UInt8]?

    public init() {}

    /// Whether bytes are waiting for the rest of a sequence (a lone ESC is
    /// Escape once the driver sees nothing follows it).
    public var hasPending: Bool { !pending.isEmpty }

    /// Feeds bytes; returns the keys they complete.
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            if pasting != nil {
                // Inside a paste: everything up to ESC [ 2 0 1 ~ is text.
                let end: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
                if let found = pending.firstOffset(of: end, from: index) {
                    pasting! += pending[index..<found]
                    keys.append(.paste(String(decoding: pasting!, as: UTF8.self)))
                    pasting = nil
                    index = found + end.count
                    continue
                }
                // Keep a possible partial terminator for the next read.
                let keep = min(end.count - 1, pending.count - index)
                pasting! += pending[index..<(pending.count - keep)]
                index = pending.count - keep
                break
            }
            guard let (key, used) = Self.decodeOne(pending, at: index) else { break }
            index += used
            if key == .paste("") {
                pasting = []
                continue
            }
            if let key { keys.append(key) }
        }
        pending.removeFirst(index)
        return keys
    }

    /// The lone ESC the driver timed out on.
    public mutating func flushEscape() -> [Key] {
        guard pending == [0x1B] else { return [] }
        pending = []
        return [.escape]
    }

    /// One key at `index`: the key (nil for a sequence to drop) and bytes
    /// used; nil when more bytes are needed. `.paste("")` marks a paste's start.
    static func decodeOne(_ bytes: [UInt8], at index: Int) -> (Key?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B: return decodeEscape(bytes, at: index)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00..<0x20: return (nil, 1)
        default:
            // One UTF-8 character.
            let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            guard index + length <= bytes.count else { return nil }
            let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
            guard let character = text.first, text.unicodeScalars.first != "\u{FFFD}" else { return (nil, length) }
            return (.character(character), length)
        }
    }

    private static func decodeEscape(_ bytes: [UInt8], at index: Int) -> (Key?, Int)? {
        guard index + 1 < bytes.count else { return nil }
        let next = bytes[index + 1]
        if next == UInt8(ascii: "O") {  // SS3: arrows in application mode
            guard index + 2 < bytes.count else { return nil }
            switch bytes[index + 2] {
            case UInt8(ascii: "A"): return (.up, 3)
            case UInt8(ascii: "B"): return (.down, 3)
            case UInt8(ascii: "C"): return (.right, 3)
            case UInt8(ascii: "D"): return (.left, 3)
            case UInt8(ascii: "H"): return (.home, 3)
            case UInt8(ascii: "F"): return (.end, 3)
            default: return (nil, 3)
            }
        }
        guard next == UInt8(ascii: "[") else {
            // Alt plus a key, or a lone ESC followed by a key: Escape, then the key.
            return (.escape, 1)
        }
        // CSI: parameters and intermediates until a final byte 0x40...0x7E.
        var end = index + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        let final = bytes[end]
        let used = end - index + 1
        if body.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            return (mouse(body.dropFirst(), release: final == UInt8(ascii: "m")), used)
        }
        let parameters = body.split(separator: ";").map { Int($0) ?? 0 }
        let modifier = parameters.count > 1 ? parameters[1] : 1
        let shifted = modifier == 2
        switch final {
        case UInt8(ascii: "A"): return (shifted ? .shiftUp : .up, used)
        case UInt8(ascii: "B"): return (shifted ? .shiftDown : .down, used)
        case UInt8(ascii: "C"): return (shifted ? .shiftRight : .right, used)
        case UInt8(ascii: "D"): return (shifted ? .shiftLeft : .left, used)
        case UInt8(ascii: "H"): return (.home, used)
        case UInt8(ascii: "F"): return (.end, used)
        case UInt8(ascii: "Z"): return (.backTab, used)
        case UInt8(ascii: "~"):
            switch parameters.first ?? 0 {
            case 1, 7: return (.home, used)
            case 2: return (.insert, used)
            case 3: return (.delete, used)
            case 4, 8: return (.end, used)
            case 5: return (.pageUp, used)
            case 6: return (.pageDown, used)
            case 200: return (.paste(""), used)
            default: return (nil, used)
            }
        default: return (nil, used)
        }
    }

    private static func mouse(_ body: Substring, release: Bool) -> Key? {
        let parts = body.split(separator: ";").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        let (code, x, y) = (parts[0], max(0, parts[1] - 1), max(0, parts[2] - 1))
        let kind: MouseEvent.Kind
        if code & 64 != 0 {
            kind = code & 1 == 0 ? .wheelUp : .wheelDown
        } else if release {
            kind = .release
        } else if code & 32 != 0 {
            kind = .drag
        } else {
            kind = .press
        }
        return .mouse(MouseEvent(kind: kind, button: code & 3, x: x, y: y))
    }
}
