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
    // Under libfaketime `stat` shows times shifted and `utimensat` stores
    // them as given: the shift is measured on a scratch file and taken off,
    // so that `stat` shows the time it showed before (0 without faketime).
    let probe = path + ".time-probe"
    guard FileManager.default.createFile(atPath: probe, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
    defer { unlink(probe) }
    var set = [before.st_mtim, before.st_mtim]
    var shown = stat()
    guard utimensat(AT_FDCWD, probe, &set, 0) == 0, stat(probe, &shown) == 0 else { throw CocoaError(.fileWriteUnknown) }
    func unshifted(_ time: timespec) -> timespec {
        let nanoseconds =
            (Int64(time.tv_sec) - Int64(shown.st_mtim.tv_sec) + Int64(before.st_mtim.tv_sec)) * 1_000_000_000
            + Int64(time.tv_nsec) - Int64(shown.st_mtim.tv_nsec) + Int64(before.st_mtim.tv_nsec)
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        return timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds - seconds * 1_000_000_000))
    }
    var times = [unshifted(before.st_atim), unshifted(before.st_mtim)]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
}
