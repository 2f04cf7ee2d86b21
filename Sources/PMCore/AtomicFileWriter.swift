/// Replaces a file so that a crash, a full disk or a failing call leaves
/// either the old file or the new one, never a mix: temp file in the same
/// directory (`O_CREAT|O_EXCL`), every byte written, `fsync`, checked
/// `close`, `rename`, directory `fsync`. Callers hold the file's lock.
struct AtomicFileWriter {
    let fileSystem: FileSystem

    func temporaryPrefix(of target: String) -> String {
        BoardStore.directory(of: target) + "/." + BoardStore.fileName(of: target) + ".tmp-"
    }

    /// Under the lock, any temp file is a leftover of a killed writer.
    func removeStaleTemporaryFiles(of target: String) {
        let prefix = "." + BoardStore.fileName(of: target) + ".tmp-"
        let directory = BoardStore.directory(of: target)
        guard let names = try? fileSystem.contentsOfDirectory(directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            try? fileSystem.remove(directory + "/" + name)
        }
    }

    /// Writes `chunks` to a temp file and renames it over `target`.
    /// - Parameter stillCurrent: asked just before the rename; false abandons the write.
    /// - Returns: false when `stillCurrent` said no (nothing was changed).
    /// - Throws: ``PMError/saveFailed(path:_:)``; the old file is intact.
    func write(
        _ chunks: [ArraySlice<UInt8>], to target: String, mode: UInt32, stillCurrent: () throws -> Bool = { true }
    ) throws -> Bool {
        let temporary = temporaryPrefix(of: target) + String(fileSystem.processID)
        var descriptor: Int32?
        do {
            let created = try fileSystem.createExclusive(temporary, mode: mode)
            descriptor = created
            for chunk in chunks { try fileSystem.write(created, chunk) }
            try fileSystem.sync(created)
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
            throw PMError.saveFailed(path: target, error)
        }
        // The new file is in place; a failed directory sync cannot undo that.
        try? fileSystem.syncDirectory(BoardStore.directory(of: target))
        return true
    }
}
