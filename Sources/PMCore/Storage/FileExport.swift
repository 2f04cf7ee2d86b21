/// Writes a file the user named (`--output`), where they pointed.
public enum FileExport {
    /// Writes `text` to `path`: a regular file (or a new one) is replaced
    /// atomically (temp, fsync, rename); a symlink is followed and its target
    /// written, never the link replaced; a device, FIFO or terminal is
    /// written through, never replaced by a regular file.
    /// - Throws: ``PMError/saveFailed(path:_:file:)`` with `.output`.
    public static func write(_ text: String, to path: String, fileSystem: FileSystem = PosixFileSystem()) throws {
        let bytes = Array(text.utf8)
        let status: FileStatus?
        do {
            status = try fileSystem.status(path)
        } catch let error as SystemCallError {
            throw PMError.saveFailed(path: path, error, file: .output)
        }
        switch status?.kind {
        case .directory?:
            throw PMError.saveFailed(path: path, SystemCallError(call: "open", code: 21), file: .output)  // EISDIR
        case .other?:
            do {
                try fileSystem.writeThrough(path, bytes)
            } catch let error as SystemCallError {
                throw PMError.saveFailed(path: path, error, file: .output)
            }
        case .regular?, nil:
            // A file made read-only is kept, even from root, who may replace it.
            if let status, status.mode & 0o222 == 0 {
                throw PMError.saveFailed(path: path, SystemCallError(call: "open", code: 13), file: .output)  // EACCES
            }
            let store = BoardStore(path: path, fileSystem: fileSystem, sleep: { _ in })
            var atomic = AtomicFileWriter(fileSystem: fileSystem)
            atomic.role = .output
            _ = try atomic.write([bytes[...]], to: try store.targetPath(), mode: status?.mode ?? 0o644)
        }
    }

    /// Writes `text` to a new file at `path`, never over one that exists
    /// (`O_CREAT|O_EXCL`), synced; a failure leaves no file.
    /// - Throws: ``PMError/createFailed(path:_:)``.
    public static func create(_ text: String, at path: String, fileSystem: FileSystem = PosixFileSystem()) throws {
        do {
            let descriptor = try fileSystem.createExclusive(path, mode: 0o644)
            do {
                try fileSystem.write(descriptor, Array(text.utf8)[...])
                try fileSystem.sync(descriptor)
            } catch {
                try? fileSystem.close(descriptor)
                try? fileSystem.remove(path)
                throw error
            }
            try fileSystem.close(descriptor)
        } catch let error as SystemCallError {
            throw PMError.createFailed(path: path, error)
        }
    }
}
