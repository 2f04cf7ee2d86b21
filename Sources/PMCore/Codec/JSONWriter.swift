import PMICU

/// Builds pretty JSON text byte by byte.
struct JSONWriter {
    var bytes: [UInt8] = []
    /// Finished pieces before `bytes`, and how many bytes they hold.
    private var pieces: [Piece] = []
    private var chunked = 0
    /// Where the tasks array and each task were written.
    var layout = Layout()

    /// Where a board's tasks lie in the bytes written.
    struct Layout {
        /// Where the tasks array begins (its `[`); 0 when none was written.
        var tasksStart = 0
        /// Each task's object, in order.
        var spans: [Range<Int>] = []
        /// The hash of each one's bytes (``BoardIndex/hash(_:)``), in order.
        var hashes: [UInt64] = []
    }

    /// A piece of what was written: bytes, or tasks to be copied from the
    /// board file they were read from (only when the encoder is asked to).
    enum Piece {
        case bytes(ArraySlice<UInt8>)
        case copied(CopiedTasks)
    }

    /// How many bytes have been written.
    var offset: Int { chunked + bytes.count }

    /// Appends bytes owned elsewhere without copying them.
    mutating func appendShared(_ slice: ArraySlice<UInt8>) {
        append(.bytes(slice), count: slice.count)
    }

    /// Appends tasks that will be copied from their file when written out.
    mutating func appendCopied(_ tasks: CopiedTasks) {
        append(.copied(tasks), count: tasks.count)
    }

    private mutating func append(_ piece: Piece, count: Int) {
        if !bytes.isEmpty {
            pieces.append(.bytes(bytes[...]))
            chunked += bytes.count
            bytes = []
        }
        pieces.append(piece)
        chunked += count
    }

    /// Every piece written, in order.
    mutating func finishedPieces() -> [Piece] {
        if !bytes.isEmpty { pieces.append(.bytes(bytes[...])) }
        bytes = []
        return pieces
    }

    /// Every piece written, in order, for a writer that was never given
    /// tasks to copy.
    mutating func finishedChunks() -> [ArraySlice<UInt8>] {
        Self.chunks(of: finishedPieces())
    }

    /// The bytes of pieces that hold no tasks to copy.
    static func chunks(of pieces: [Piece]) -> [ArraySlice<UInt8>] {
        pieces.compactMap { piece in
            guard case .bytes(let chunk) = piece else { return nil }
            return chunk
        }
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func indent(_ level: Int) {
        bytes.append(contentsOf: repeatElement(0x20, count: level * 2))
    }

    /// `{ "key": value, … }` with one field per line, at `level`.
    mutating func object(_ fields: [(String, (inout JSONWriter) -> Void)], level: Int) {
        guard !fields.isEmpty else {
            raw("{}")
            return
        }
        raw("{\n")
        for (offset, field) in fields.enumerated() {
            indent(level + 1)
            string(field.0)
            raw(": ")
            field.1(&self)
            raw(offset == fields.count - 1 ? "\n" : ",\n")
        }
        indent(level)
        raw("}")
    }

    /// `[ element, … ]` with one element per line.
    mutating func array(count: Int, level: Int, element: (inout JSONWriter, Int) -> Void) {
        guard count > 0 else {
            raw("[]")
            return
        }
        raw("[\n")
        for index in 0..<count {
            indent(level + 1)
            element(&self, index)
            raw(index == count - 1 ? "\n" : ",\n")
        }
        indent(level)
        raw("]")
    }

    mutating func value(_ value: JSONValue, level: Int) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .number(let literal): raw(literal)
        case .string(let text): string(text)
        case .array(let elements):
            array(count: elements.count, level: level) { writer, index in
                writer.value(elements[index], level: level + 1)
            }
        case .object(let members):
            let fields = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { member in
                (member.key, { (writer: inout JSONWriter) in writer.value(member.value, level: level + 1) })
            }
            object(fields, level: level)
        }
    }

    /// A JSON string literal. `"`, `\` and every character that must never
    /// reach a terminal raw (C0, DEL, C1, bidi controls, U+2028/2029) are
    /// escaped, so the board file and `--json` are safe to `cat` and to embed.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Bytes that start every character needing an escape: C0, `"`, `\`,
            // DEL, and the lead bytes of C1 (C2), U+061C (D8) and U+200E… (E2).
            if !utf8.contains(where: {
                $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2
            }) {
                bytes.append(contentsOf: utf8)
                return
            }
            for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
                switch scalar {
                case "\"": bytes.append(contentsOf: [0x5C, 0x22])
                case "\\": bytes.append(contentsOf: [0x5C, 0x5C])
                case "\n": bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case "\r": bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case "\t": bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    if TextSafety.isUnsafe(scalar) {
                        let hex = Array("0123456789abcdef".utf8)
                        let value = scalar.value
                        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u")])
                        for shift in [12, 8, 4, 0] { bytes.append(hex[Int((value >> UInt32(shift)) & 0xF)]) }
                    } else if scalar.isASCII {
                        bytes.append(UInt8(truncatingIfNeeded: scalar.value))
                    } else {
                        UTF8.encode(scalar) { bytes.append($0) }
                    }
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
