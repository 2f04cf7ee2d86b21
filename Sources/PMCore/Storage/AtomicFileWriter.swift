/// Replaces a file so that a crash, a full disk or a failing call leaves
/// either the old file or the new one, never a mix: temp file in the same
/// directory (`O_CREAT|O_EXCL`, never through a link), every byte written,
/// `fsync`, checked `close`, `rename`, directory `fsync`.
///
/// A temp file is named `.<name>.tmp-<host>-<pid>-<random>`, so that a
/// cleanup removes only what a writer that is gone left behind, never a live
/// writer's file, even where a shared folder lets two writers in at once.
struct AtomicFileWriter {
    let fileSystem: FileSystem
    /// Which file this is, for the error a failure throws.
    var role: SavedFile = .board

    /// Saves a person's state file (undo history, reminders, sync state,
    /// news mark): its folder made if need be, then the file replaced
    /// atomically, readable by its owner only.
    /// - Throws: ``PMError/saveFailed(path:_:file:)`` naming `role`.
    static func saveStateFile(_ writer: consuming JSONWriter, to path: String, role: SavedFile, fileSystem: FileSystem) throws {
        let directory = BoardStore.directory(of: path)
        do {
            try fileSystem.createDirectories(directory)
        } catch let error as SystemCallError {
            throw PMError.saveFailed(path: directory, error, file: role)
        }
        var atomic = AtomicFileWriter(fileSystem: fileSystem)
        atomic.role = role
        atomic.removeStaleTemporaryFiles(of: path)
        _ = try atomic.write(writer.finishedChunks(), to: path, mode: 0o600)
    }

    /// How old another host's temp file must be before it counts as left behind.
    static let foreignTemporaryLifetime: Int64 = 3600 * 1_000_000_000

    func temporaryPrefix(of target: String) -> String {
        BoardStore.directory(of: target) + "/." + BoardStore.fileName(of: target) + ".tmp-"
    }

    /// Removes temp files of `target` whose writer is gone: on this host, a
    /// process that no longer runs; on another, one older than an hour by
    /// the file system's clock `now` (nil: never).
    func removeStaleTemporaryFiles(of target: String, now: Int64? = nil) {
        let prefix = "." + BoardStore.fileName(of: target) + ".tmp-"
        let directory = BoardStore.directory(of: target)
        guard let names = try? fileSystem.contentsOfDirectory(directory) else { return }
        let host = BoardLock.safeHost(fileSystem)
        for name in names where name.hasPrefix(prefix) {
            let path = directory + "/" + name
            let (writerHost, pid) = Self.writer(ofTemporaryName: String(name.dropFirst(prefix.count)))
            let gone: Bool
            if writerHost == nil || writerHost == host {
                gone = pid.map { $0 == fileSystem.processID || !fileSystem.processIsAlive($0) } ?? false
            } else if let now, let status = try? fileSystem.linkStatus(path) {
                gone = now - status.modifiedNanoseconds > Self.foreignTemporaryLifetime
            } else {
                gone = false
            }
            if gone { try? fileSystem.remove(path) }
        }
    }

    /// The host and pid a temp name carries: `host-pid-random`, or a bare
    /// `pid` as pm 0.1 named them (this host).
    static func writer(ofTemporaryName rest: String) -> (host: String?, pid: Int32?) {
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 1 { return (nil, Int32(parts[0])) }
        guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]) else { return ("?", nil) }
        return (parts.dropLast(2).joined(separator: "-"), pid)
    }

    /// Writes `chunks` to a temp file and renames it over `target`.
    /// - Parameters:
    ///   - stillCurrent: asked just before the rename; false abandons the write.
    ///   - synced: given the written file's status once it is on disk, before the rename.
    /// - Returns: false when `stillCurrent` said no (nothing was changed).
    /// - Throws: ``PMError/saveFailed(path:_:file:)``; the old file is intact.
    func write(
        _ chunks: [ArraySlice<UInt8>], to target: String, mode: UInt32, stillCurrent: () throws -> Bool = { true },
        synced: (FileStatus) -> Void = { _ in }
    ) throws -> Bool {
        try write(
            producing: { emit in for chunk in chunks { try emit(chunk) } }, to: target, mode: mode, stillCurrent: stillCurrent,
            synced: synced)
    }

    /// As ``write(_:to:mode:stillCurrent:synced:)``, with the bytes handed
    /// over piece by piece by `produce` (which may read them from elsewhere
    /// as it goes); an error it throws abandons the write, the old file intact.
    func write(
        producing produce: ((ArraySlice<UInt8>) throws -> Void) throws -> Void, to target: String, mode: UInt32,
        stillCurrent: () throws -> Bool = { true }, synced: (FileStatus) -> Void = { _ in }
    ) throws -> Bool {
        let random = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        let temporary =
            temporaryPrefix(of: target) + BoardLock.safeHost(fileSystem) + "-" + String(fileSystem.processID)
            + "-" + random
        var descriptor: Int32?
        do {
            let created = try fileSystem.createExclusive(temporary, mode: mode)
            descriptor = created
            try produce { try fileSystem.write(created, $0) }
            try fileSystem.sync(created)
            if let status = try? fileSystem.descriptorStatus(created) { synced(status) }
            descriptor = nil
            try fileSystem.close(created)
            guard try stillCurrent() else {
                try? fileSystem.remove(temporary)
                return false
            }
            try fileSystem.rename(temporary, to: target)
        } catch let error as SystemCallError {
            if let descriptor { try? fileSystem.close(descriptor) }
            try? fileSystem.remove(temporary)
            throw PMError.saveFailed(path: target, error, file: role)
        } catch {
            if let descriptor { try? fileSystem.close(descriptor) }
            try? fileSystem.remove(temporary)
            throw error
        }
        // The new file is in place; a failed directory sync cannot undo that.
        try? fileSystem.syncDirectory(BoardStore.directory(of: target))
        return true
    }
}
