import CZlib

/// gzip (RFC 1952) through the system's zlib: a page of a large board is
/// mostly repeated markup, a tenth of its size compressed.
enum Gzip {
    /// `bytes` compressed, or nil if zlib fails (the answer then goes as is).
    static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Whether the request's `Accept-Encoding` takes gzip (and not with `q=0`).
    static func accepted(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { part in
            let fields = part.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            return fields.first == "gzip" && !fields.dropFirst().contains { $0 == "q=0" || $0 == "q=0.0" || $0 == "q=0.00" }
        }
    }
}
