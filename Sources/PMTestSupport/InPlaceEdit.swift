import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes `bytes` over the file at `path` in place (not a new file renamed
/// over it), then puts its modification time back: what a hand edit or a
/// damaged disk can do to a file without changing its size or time, which
/// pm's index of the board file cannot see.
public func overwriteKeepingTime(_ path: String, _ bytes: [UInt8]) throws {
    var before = stat()
    guard stat(path, &before) == 0 else { throw CocoaError(.fileNoSuchFile) }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
    var times = [before.st_atim, before.st_mtim]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
}
