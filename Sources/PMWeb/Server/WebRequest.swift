/// A request as the web board reads it, bounded and decoded, and the
/// answer it gets. Nothing here reaches the file system: a path is only
/// ever compared with the routes' fixed names.
struct WebRequest: Sendable {
    var method: String
    /// The path without its query, percent-decoding not applied (routes are fixed ASCII).
    var path: String
    /// The query's fields, decoded (`a=1&b=x%20y`).
    var query: [String: String]
    /// Header names in lower case; a repeated header keeps its first value.
    var headers: [String: String]
    var body: [UInt8]

    /// The fields of a form body (`application/x-www-form-urlencoded`).
    var form: [String: String] { FormFields.decode(String(decoding: body, as: UTF8.self)) }

    /// The cookies the browser sent (`a=1; b=2`).
    var cookies: [String: String] {
        var found: [String: String] = [:]
        for part in (headers["cookie"] ?? "").split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingSpaces
            if found[name] == nil { found[name] = pair[1].trimmingSpaces }
        }
        return found
    }

    /// Splits a request target (`/board?q=x`) into its path and query.
    static func split(_ target: String) -> (path: String, query: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        return (String(target[..<mark]), FormFields.decode(String(target[target.index(after: mark)...])))
    }
}

/// An answer: status, headers, body.
struct WebResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []

    init(status: Int, contentType: String? = nil, body: [UInt8] = []) {
        self.status = status
        self.body = body
        if let contentType { headers.append(("Content-Type", contentType)) }
    }

    static func html(_ text: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, contentType: "text/html; charset=utf-8", body: Array(text.utf8))
    }

    static func text(_ text: String, status: Int) -> WebResponse {
        WebResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    static func redirect(to location: String) -> WebResponse {
        var response = WebResponse(status: 303)
        response.headers.append(("Location", location))
        return response
    }
}

/// `application/x-www-form-urlencoded`, as browsers write it.
enum FormFields {
    /// The fields of `text`; a repeated name keeps its first value, and a
    /// field that is not UTF-8 once decoded is dropped.
    static func decode(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecoded(parts[0]), fields[name] == nil else { continue }
            fields[name] = parts.count > 1 ? percentDecoded(parts[1]) : ""
        }
        return fields
    }

    /// `a+b%C3%A9` → `a bé`; nil when the bytes are not UTF-8 or an escape is broken.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
