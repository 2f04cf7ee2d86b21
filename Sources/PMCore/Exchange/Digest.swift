import PMSign

/// Hashes and encodings an export needs (the HTML page names its style by hash).
public enum Digest {
    /// SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { Signing.sha256(bytes) }

    /// Base64 (RFC 4648, with padding).
    public static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var word = 0
            for (offset, byte) in chunk.enumerated() { word |= Int(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[(word >> (18 - 6 * position)) & 63] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
