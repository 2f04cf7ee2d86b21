import PMText

/// JSON another program wrote (a Trello or Taskwarrior export), each value
/// with the byte offset where it starts, so that an import refuses a bad
/// value by its line and column.
public struct LocatedJSON: Sendable {
    public indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([LocatedJSON])
        case object([String: LocatedJSON])
    }

    /// Where the value starts in the file.
    public let offset: Int
    public let value: Value

    /// The deepest nesting read: real exports nest a few levels; a crafted
    /// file must not exhaust the stack.
    static let depthLimit = 64

    /// Parses one JSON document (UTF-8 checked first).
    /// - Throws: ``ImportFailure`` at the first byte that is not valid.
    public static func parse(_ bytes: [UInt8]) throws -> LocatedJSON {
        let values = try parseSequence(bytes, many: false)
        guard let value = values.first else { throw ImportFailure(offset: 0, problem: .empty) }
        return value
    }

    /// Parses one document, or with `many` a sequence of them separated by
    /// white space (JSON lines, as older Taskwarrior exports are).
    static func parseSequence(_ bytes: [UInt8], many: Bool) throws -> [LocatedJSON] {
        if let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw ImportFailure(offset: offset, problem: .invalidUTF8)
        }
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(buffer)
                var values: [LocatedJSON] = []
                var budget = ImportRules.valueLimit
                reader.skipWhitespace()
                while !reader.atEnd {
                    if !values.isEmpty && !many { throw reader.failure() }
                    values.append(try read(&reader, depth: 0, budget: &budget))
                    reader.skipWhitespace()
                }
                return values
            }
        } catch let failure as JSONReader.Failure {
            switch failure.reason {
            case .truncated: throw ImportFailure(offset: failure.offset, problem: .truncated)
            case .duplicateKey(let key): throw ImportFailure(offset: failure.offset, problem: .duplicateKey(key))
            default: throw ImportFailure(offset: failure.offset, problem: .syntax)
            }
        } catch let failure as ImportFailure {
            throw failure
        } catch {
            throw ImportFailure(offset: 0, problem: .syntax)
        }
    }

    /// One value; `budget` counts down the values a file may hold, so that
    /// memory stays bounded whatever it holds (`[1,1,1,…]` of 64 MiB).
    private static func read(_ reader: inout JSONReader, depth: Int, budget: inout Int) throws -> LocatedJSON {
        let byte = try reader.peek()
        let offset = reader.index
        guard depth < depthLimit else { throw ImportFailure(offset: offset, problem: .tooDeep(depthLimit)) }
        budget -= 1
        guard budget >= 0 else { throw ImportFailure(offset: offset, problem: .tooManyValues(ImportRules.valueLimit)) }
        switch byte {
        case UInt8(ascii: "{"):
            try reader.beginObject()
            var object: [String: LocatedJSON] = [:]
            var first = true
            while let key = try reader.nextKey(first: &first) {
                guard object[key] == nil else {
                    throw JSONReader.Failure(offset: reader.keyStart, reason: .duplicateKey(key))
                }
                object[key] = try read(&reader, depth: depth + 1, budget: &budget)
            }
            return LocatedJSON(offset: offset, value: .object(object))
        case UInt8(ascii: "["):
            try reader.beginArray()
            var array: [LocatedJSON] = []
            var first = true
            while try reader.nextElement(first: &first) { array.append(try read(&reader, depth: depth + 1, budget: &budget)) }
            return LocatedJSON(offset: offset, value: .array(array))
        default:
            return LocatedJSON(offset: offset, value: try scalar(reader.readValue()))
        }
    }

    private static func scalar(_ value: JSONValue) -> Value {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let text): return .number(text)
        case .string(let text): return .string(text)
        case .array, .object: return .null  // not reached: containers are read above
        }
    }

    // MARK: Reading a value

    /// The member `key` of an object; nil when absent, null, or not an object.
    public subscript(key: String) -> LocatedJSON? {
        guard case .object(let members) = value, let member = members[key] else { return nil }
        if case .null = member.value { return nil }
        return member
    }

    /// The members, when an object.
    public var members: [String: LocatedJSON]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The elements, when an array.
    public var elements: [LocatedJSON]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// A string member, refused by its place when it is there but not a string.
    public func string(_ key: String) throws -> String? {
        guard let member = self[key] else { return nil }
        guard case .string(let text) = member.value else { throw member.wrong(key) }
        return text
    }

    /// A boolean member (absent: false), refused when it is not one.
    public func flag(_ key: String) throws -> Bool {
        guard let member = self[key] else { return false }
        guard case .bool(let flag) = member.value else { throw member.wrong(key) }
        return flag
    }

    /// An array member (absent: empty), refused when it is not one.
    public func array(_ key: String) throws -> [LocatedJSON] {
        guard let member = self[key] else { return [] }
        guard let elements = member.elements else { throw member.wrong(key) }
        return elements
    }

    /// A failure at this value: `field` does not hold what it should.
    public func wrong(_ field: String) -> ImportFailure {
        ImportFailure(offset: offset, problem: .field(field))
    }
}
