import Foundation
import PMCore

/// A file system that behaves like the real one until its Nth call, which
/// fails with the given `errno` (ENOSPC, EIO, EACCES…). Counts every call, so
/// a test can walk the failure through the whole save path.
public final class FaultInjectingFileSystem: FileSystem, @unchecked Sendable {
    private let real = PosixFileSystem()
    private let lock = NSLock()
    private var calls = 0
    /// 1-based index of the call that fails; nil never fails.
    public let failingCall: Int?
    public let code: Int32
    /// The names of the calls made, in order.
    public private(set) var log: [String] = []

    public init(failingCall: Int?, code: Int32) {
        self.failingCall = failingCall
        self.code = code
    }

    /// How many calls were made.
    public var callCount: Int { lock.withLock { calls } }

    private func step(_ name: String) throws {
        let index: Int = lock.withLock {
            calls += 1
            log.append(name)
            return calls
        }
        if index == failingCall { throw SystemCallError(call: name, code: code) }
    }

    public func status(_ path: String) throws -> FileStatus? {
        try step("stat")
        return try real.status(path)
    }
    public func symbolicLinkTarget(_ path: String) -> String? { real.symbolicLinkTarget(path) }
    public func readFile(_ path: String) throws -> [UInt8] {
        try step("read")
        return try real.readFile(path)
    }
    public func createDirectories(_ path: String) throws {
        try step("mkdir")
        try real.createDirectories(path)
    }
    public func openLockFile(_ path: String) throws -> Int32 {
        try step("openLock")
        return try real.openLockFile(path)
    }
    public func tryLock(_ descriptor: Int32) throws -> Bool {
        try step("flock")
        return try real.tryLock(descriptor)
    }
    public func overwrite(_ descriptor: Int32, with bytes: [UInt8]) throws {
        try step("writePID")
        try real.overwrite(descriptor, with: bytes)
    }
    public func readDescriptor(_ descriptor: Int32, limit: Int) -> [UInt8] { real.readDescriptor(descriptor, limit: limit) }
    public func createExclusive(_ path: String, mode: UInt32) throws -> Int32 {
        try step("create")
        return try real.createExclusive(path, mode: mode)
    }
    public func write(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) throws {
        // A failing write may have written part of the data first, as on a full disk.
        if callCount + 1 == failingCall { try? real.write(descriptor, bytes.prefix(bytes.count / 2)) }
        try step("write")
        try real.write(descriptor, bytes)
    }
    public func sync(_ descriptor: Int32) throws {
        try step("fsync")
        try real.sync(descriptor)
    }
    public func close(_ descriptor: Int32) throws {
        do { try step("close") } catch {
            try? real.close(descriptor)
            throw error
        }
        try real.close(descriptor)
    }
    public func rename(_ source: String, to destination: String) throws {
        try step("rename")
        try real.rename(source, to: destination)
    }
    public func moveNoReplace(_ source: String, intoDirectory directory: String, name: String) throws {
        try step("rename")
        try real.moveNoReplace(source, intoDirectory: directory, name: name)
    }
    public func syncDirectory(_ path: String) throws {
        try step("fsyncDir")
        try real.syncDirectory(path)
    }
    public func remove(_ path: String) throws { try real.remove(path) }
    public func contentsOfDirectory(_ path: String) throws -> [String] {
        try step("readdir")
        return try real.contentsOfDirectory(path)
    }
    public var processID: Int32 { real.processID }
    public var hostName: String { real.hostName }
    public func processIsAlive(_ pid: Int32) -> Bool { real.processIsAlive(pid) }
    public func lockHolders(_ descriptor: Int32) -> [Int32] { real.lockHolders(descriptor) }
    public func linkStatus(_ path: String) throws -> FileStatus? {
        try step("lstat")
        return try real.linkStatus(path)
    }
    public func readFileNoFollow(_ path: String) throws -> [UInt8] {
        try step("read")
        return try real.readFileNoFollow(path)
    }
    public func descriptorStatus(_ descriptor: Int32) throws -> FileStatus {
        try step("fstat")
        return try real.descriptorStatus(descriptor)
    }
    public func openForAppend(_ path: String) throws -> Int32 {
        try step("openAppend")
        return try real.openForAppend(path)
    }
    public func openForReading(_ path: String) throws -> Int32? {
        try step("openRead")
        return try real.openForReading(path)
    }
    public func read(_ descriptor: Int32, at offset: Int, count: Int) throws -> [UInt8] {
        try step("pread")
        return try real.read(descriptor, at: offset, count: count)
    }
    public func truncate(_ descriptor: Int32, to length: Int) throws {
        try step("ftruncate")
        try real.truncate(descriptor, to: length)
    }
    public func writeThrough(_ path: String, _ bytes: [UInt8]) throws {
        try step("writeThrough")
        try real.writeThrough(path, bytes)
    }
}
