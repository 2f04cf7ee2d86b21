import Foundation
import PMCore

/// A folder as a remote: each replica's events in `events/<replica>.jsonl`,
/// written whole and renamed into place, so that a sync tool never sees half
/// a file. A folder that is gone (an unmounted share) is offline: pm never
/// creates it again behind the user's back.
public struct FolderTransport: Transport {
    public let path: String

    public init(path: String) { self.path = path }

    private var isThere: Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    public func reachable() -> Bool { isThere }

    public func fetch() throws -> RemoteSnapshot {
        guard isThere else { throw SyncError.unreachable(target: path, detail: "") }
        var snapshot = RemoteSnapshot()
        let manager = FileManager.default
        // Anyone may have put anything here: only regular files are read, and
        // `events` must be a real folder (a link could lead pm's writes anywhere).
        let description = path + "/" + RemoteDescription.name
        if let kind = Self.kind(description) {
            guard kind == .typeRegular, Self.size(description) <= 64 * 1024, let data = manager.contents(atPath: description),
                let board = RemoteDescription.board(in: Array(data))
            else { throw SyncError.badRemote(target: path, detail: RemoteDescription.name) }
            snapshot.boardID = board
        }
        let events = path + "/events"
        if let kind = Self.kind(events), kind != .typeDirectory {
            throw SyncError.badRemote(target: path, detail: "events")
        }
        for name in ((try? manager.contentsOfDirectory(atPath: events)) ?? []).sorted() where !name.hasPrefix(".") {
            let file = events + "/" + name
            guard let attributes = try? manager.attributesOfItem(atPath: file),
                attributes[.type] as? FileAttributeType == .typeRegular,
                (attributes[.size] as? Int ?? 0) <= OtherCopy.maximumBytes,
                let data = manager.contents(atPath: file)
            else { continue }
            snapshot.files.append(RemoteFile(name: "events/" + name, bytes: Array(data)))
        }
        return snapshot
    }

    /// The type of what is at `path`, links not followed; nil when nothing is there.
    static func kind(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? Int.max
    }

    public func publish(_ files: [RemoteFile], aside: [String], message: String) throws {
        guard isThere else { throw SyncError.unreachable(target: path, detail: "") }
        for directory in ["events", "aside"] {
            if let kind = Self.kind(path + "/" + directory), kind != .typeDirectory {
                throw SyncError.badRemote(target: path, detail: directory)
            }
        }
        let manager = FileManager.default
        do {
            for file in files {
                let target = path + "/" + file.name
                let directory = (target as NSString).deletingLastPathComponent
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let temporary = directory + "/.pm-" + UUID().uuidString + ".tmp"
                guard manager.createFile(atPath: temporary, contents: Data(file.bytes)) else {
                    throw SyncError.unreachable(target: path, detail: file.name)
                }
                if rename(temporary, target) != 0 {
                    try? manager.removeItem(atPath: temporary)
                    throw SyncError.unreachable(target: path, detail: file.name)
                }
            }
            for name in aside {
                let directory = path + "/aside"
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                var destination = directory + "/" + (name as NSString).lastPathComponent
                var counter = 1
                while manager.fileExists(atPath: destination) {
                    counter += 1
                    destination = directory + "/\(counter)-" + (name as NSString).lastPathComponent
                }
                try manager.moveItem(atPath: path + "/" + name, toPath: destination)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.unreachable(target: path, detail: "\(error.localizedDescription)")
        }
    }
}
