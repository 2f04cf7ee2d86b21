import PMCore

#if canImport(Glibc)
    import Glibc
#endif

/// A folder as a remote: each replica's events in segments under
/// `events/<replica>/` (``RemoteLayout``), each written whole and renamed
/// into place, so that a sync tool never sees half a file. A folder that is gone (an unmounted share) is offline: pm never
/// creates it again behind the user's back.
public struct FolderTransport: Transport {
    public let path: String

    public init(path: String) { self.path = path }

    private let files = PosixFileSystem()

    private var isThere: Bool {
        (try? files.status(path))??.kind == .directory
    }

    public func reachable() -> Bool { isThere }

    /// A folder is looked at directly (no link followed), network or not.
    public func holds(_ names: [String], network: Bool) -> Bool? {
        guard isThere else { return nil }
        return names.allSatisfy { status(path + "/" + $0)?.kind == .regular }
    }

    public func fetch() throws -> RemoteSnapshot {
        guard isThere else { throw SyncError.unreachable(target: path, detail: "") }
        var snapshot = RemoteSnapshot()
        // Anyone may have put anything here: only regular files are read, and
        // `events` must be a real folder (a link could lead pm's writes anywhere).
        let description = path + "/" + RemoteDescription.name
        if let status = status(description) {
            guard status.kind == .regular, status.size <= 64 * 1024,
                let data = try? files.readFileNoFollow(description), let board = RemoteDescription.board(in: data)
            else { throw SyncError.badRemote(target: path, detail: RemoteDescription.name) }
            snapshot.boardID = board
        }
        let events = path + "/events"
        if let status = status(events), status.kind != .directory {
            throw SyncError.badRemote(target: path, detail: "events")
        }
        // Read later, streamed within budgets (OtherCopy.stream), never whole here.
        do {
            _ = try files.contentsOfDirectory(events)
        } catch let error as SystemCallError where error.code == EACCES {
            throw SyncError.permission(target: path, detail: "events: errno \(error.code)")
        } catch {}
        var budget = Self.listingLimit
        list(events, as: "events", depth: 0, into: &snapshot, budget: &budget)
        // Forwarded events, in a real folder only (anything else there is not read).
        let forwarded = path + "/" + RemoteLayout.forwardedFolder
        if status(forwarded)?.kind == .directory {
            list(forwarded, as: RemoteLayout.forwardedFolder, depth: 0, into: &snapshot, budget: &budget)
        }
        return snapshot
    }

    /// Most files one listing takes: past it, the rest are named as not read.
    static let listingLimit = 200_000

    /// Adds the regular files under `folder` (a replica's segments lie in
    /// folders named by its id, then by digits); links are never followed,
    /// dot files (pm's temporary files) never listed.
    private func list(_ folder: String, as name: String, depth: Int, into snapshot: inout RemoteSnapshot, budget: inout Int) {
        for entry in ((try? files.contentsOfDirectory(folder)) ?? []).sorted() where !entry.hasPrefix(".") {
            let file = folder + "/" + entry
            guard let status = status(file) else { continue }
            if status.kind == .regular {
                guard budget > 0 else {
                    snapshot.unlisted.append(name)
                    return
                }
                budget -= 1
                snapshot.files.append(RemoteEntry(name: name + "/" + entry, path: file, size: status.size))
            } else if status.kind == .directory, depth < RemoteLayout.maximumDigits,
                depth > 0 ? entry.count == 1 : TaskID(entry) != nil
            {
                list(file, as: name + "/" + entry, depth: depth + 1, into: &snapshot, budget: &budget)
            } else if snapshot.notFiles.count < 100 {
                snapshot.notFiles.append(name + "/" + entry)
            }
        }
    }

    /// What is at `path`, links not followed; nil when nothing is there.
    private func status(_ path: String) -> FileStatus? {
        (try? files.linkStatus(path)) ?? nil
    }

    public func publish(_ files: [RemoteFile], aside: [String], message: String) throws {
        guard isThere else { throw SyncError.unreachable(target: path, detail: "") }
        for directory in ["events", "aside", RemoteLayout.forwardedFolder] {
            if let status = status(path + "/" + directory), status.kind != .directory {
                throw SyncError.badRemote(target: path, detail: directory)
            }
        }
        for file in files { try write(file) }
        for name in aside { try setAside(name) }
    }

    /// Writes one file whole, then renames it into place.
    private func write(_ file: RemoteFile) throws {
        let target = path + "/" + file.name
        let directory = Paths.parent(of: target)
        do {
            try files.createDirectories(directory)
            let temporary = directory + "/.pm-" + PMEnvironment.randomID().rawValue + ".tmp"
            let descriptor = try files.createExclusive(temporary, mode: 0o644)
            do {
                try files.write(descriptor, file.bytes[...])
                try files.close(descriptor)
                if case .segment = RemoteLayout.classify(file.name)?.kind {
                    // A segment is never replaced: a copy that took the same
                    // number first (the same replica elsewhere) keeps it.
                    do {
                        try files.moveNoReplace(temporary, intoDirectory: directory, name: Paths.lastComponent(of: target))
                    } catch let error as SystemCallError where error.code == EEXIST {
                        try? files.remove(temporary)
                        throw SyncError.rejected
                    }
                } else {
                    try files.rename(temporary, to: target)
                }
            } catch {
                try? files.remove(temporary)
                throw error
            }
        } catch SyncError.rejected {
            throw SyncError.rejected
        } catch {
            throw Self.failure(error, file.name, target: path)
        }
    }

    /// Moves the file `name` into `aside/`, under a name not taken there.
    private func setAside(_ name: String) throws {
        let directory = path + "/aside"
        let base = Paths.lastComponent(of: name)
        do {
            if status(directory) == nil { try files.createDirectories(directory) }
            // Into the real folder (a link there is refused), never over a file already there.
            var counter = 1
            while true {
                do {
                    try files.moveNoReplace(
                        path + "/" + name, intoDirectory: directory, name: counter == 1 ? base : "\(counter)-" + base)
                    break
                } catch let error as SystemCallError where error.code == EEXIST && counter < 1000 {
                    counter += 1
                }
            }
        } catch let error as SystemCallError where error.code == ENOENT && status(path + "/" + name) == nil {
            // Another copy syncing at the same moment moved it first:
            // what it held was read by both (issue 43, item 12).
            return
        } catch {
            throw Self.failure(error, name, target: path)
        }
    }

    private static func describe(_ error: any Error, _ name: String) -> String {
        guard let failure = error as? SystemCallError else { return name }
        return name + ": " + failure.call + " errno " + String(failure.code)
    }

    /// A write that failed: no access and a full disk are said as such;
    /// anything else is the folder going away (an unmounted share).
    private static func failure(_ error: any Error, _ name: String, target: String) -> SyncError {
        let detail = describe(error, name)
        switch (error as? SystemCallError)?.code {
        case EACCES, EPERM, EROFS: return .permission(target: target, detail: detail)
        case ENOSPC, EDQUOT: return .diskFull(target: target, detail: detail)
        default: return .unreachable(target: target, detail: detail)
        }
    }
}
