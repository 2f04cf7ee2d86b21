/// Sync tools' conflicted copies of a board beside it (Syncthing's
/// `.sync-conflict-`, Dropbox's and Nextcloud's `(conflicted copy …)`): found
/// by name, told apart from junk by their first bytes, merged through the
/// gate, and moved into `.pm-merged/` only when that is a real folder, never
/// over a file already there.
extension BoardStore {
    /// Sync tools' conflicted copies of this board's files found beside it
    /// (Syncthing's `board.sync-conflict-….json`, Dropbox's and Nextcloud's
    /// `board (… conflicted copy …).json`, and the same for the log): their
    /// paths, for ``mergeConflictedCopies(newBoardID:replica:now:)``.
    public func conflictedCopies() throws -> [String] {
        let target = try targetPath()
        let directory = Self.directory(of: target)
        let name = Self.fileName(of: target)
        let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        guard let names = try? fileSystem.contentsOfDirectory(directory) else { return [] }
        return names.filter { candidate in
            candidate != name && candidate.hasPrefix(stem)
                && Array(candidate.lowercased().utf8).firstOffset(of: Array("conflict".utf8)) != nil
                && (candidate.hasSuffix(".json") || candidate.hasSuffix(".jsonl"))
        }.sorted().map { directory + "/" + $0 }
    }

    /// Merges each conflicted copy beside the board that is a copy of this
    /// board (recognised by its content: events, or a board with this id) and
    /// moves it into `.pm-merged/` beside the board — never deletes it.
    /// A file that is not a copy of this board is left where it is.
    /// - Returns: the copies merged, with how many events were new.
    public func mergeConflictedCopies(newBoardID: TaskID, replica: TaskID, now: Int64) throws -> [MergedCopy] {
        var merged: [MergedCopy] = []
        var budget = OtherCopy.totalBytes
        var gate = EventGate(now: now)
        for path in try conflictedCopies() {
            // Another program's file, or a sparse one, is told from its first
            // bytes: never read whole on every command.
            guard OtherCopy.mayBeCopy(path, fileSystem: fileSystem),
                var copy = try? OtherCopy.read(path, fileSystem: fileSystem, budget: &budget),
                !copy.events.isEmpty, copy.cutAfterBytes == nil
            else { continue }
            copy.quarantine { gate.admit($0, replica: nil) }
            let added: Int
            do {
                added = try merge(copy.events, boardID: copy.boardID, newBoardID: newBoardID, replica: replica, source: path)
            } catch PMError.otherBoard, PMError.notThisBoard {
                continue
            }
            merged.append(MergedCopy(path: path, added: added, movedAside: moveAside(path)))
        }
        return merged
    }

    /// A conflicted copy merged: where it was, how many events were new,
    /// and whether it now lies in `.pm-merged/`.
    public struct MergedCopy: Equatable, Sendable {
        public var path: String
        public var added: Int
        public var movedAside: Bool
    }

    /// Moves a merged copy into `.pm-merged/` beside it: a real folder (a
    /// link there is never followed), under a name nothing has yet.
    private func moveAside(_ path: String) -> Bool {
        let aside = Self.directory(of: path) + "/.pm-merged"
        do {
            if let found = try fileSystem.linkStatus(aside) {
                guard found.kind == .directory else { return false }
            } else {
                try fileSystem.createDirectories(aside)
            }
        } catch {
            return false
        }
        let name = Self.fileName(of: path)
        for attempt in 0..<100 {
            let candidate = attempt == 0 ? name : "\(attempt + 1)-" + name
            do {
                try fileSystem.moveNoReplace(path, intoDirectory: aside, name: candidate)
                return true
            } catch let error as SystemCallError where error.code == 17 {  // EEXIST: that name is taken
                continue
            } catch {
                return false
            }
        }
        return false
    }
}
