import PMCore

#if canImport(Glibc)
    import Glibc
#endif

/// The file an import reads: a path, or `-` for standard input
/// (`task export | pm import taskwarrior -`); at most ``ImportRules/byteLimit`` bytes.
public enum ImportFile {
    public static func read(_ path: String, standardInput: Int32 = 0) throws -> [UInt8] {
        let descriptor = path == "-" ? standardInput : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw PMError.readFailed(path: path, SystemCallError(call: "open", code: errno)) }
        defer { if path != "-" { _ = close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw PMError.readFailed(path: path, SystemCallError(call: "fstat", code: errno))
        }
        // A file, or a pipe (`-`, `<(task export)`); never a directory or a device.
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO, S_IFSOCK: break
        case S_IFDIR: throw PMError.readFailed(path: path, SystemCallError(call: "open", code: EISDIR))
        default: throw PMError.importRefused(path: path, line: nil, column: nil, problem: .notAFile)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= ImportRules.byteLimit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw PMError.readFailed(path: path, SystemCallError(call: "read", code: errno))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
        throw PMError.importRefused(
            path: path, line: nil, column: nil, problem: .tooLarge(ImportRules.byteLimit))
    }

}
