/// A notice pm gives a person once (the system has no ICU), remembered in
/// their state folder: said on every command, it was noise.
public struct NoticeMark: Sendable {
    public let path: String
    let fileSystem: FileSystem

    /// The mark of notice `name` for `user`.
    public init(stateDirectory: String, user: String, name: String, fileSystem: FileSystem = PosixFileSystem()) {
        path = stateDirectory + "/notice-" + name + "-" + UndoStore.fileNamePart(user)
        self.fileSystem = fileSystem
    }

    /// Whether the notice was given (anything at the mark's place counts).
    public var given: Bool { ((try? fileSystem.linkStatus(path)) ?? nil) != nil }

    /// Remembers that it was given; a state folder that cannot be written
    /// only means the notice comes again.
    public func remember() {
        guard (try? fileSystem.createDirectories(BoardStore.directory(of: path))) != nil,
            let descriptor = try? fileSystem.createExclusive(path, mode: 0o600)
        else { return }
        try? fileSystem.close(descriptor)
    }

    /// The package that brings ICU on this system, from `/etc/os-release`
    /// (`libicu72` on Debian 12), or nil when pm does not know it.
    public static func icuPackage(osRelease: [UInt8]) -> String? {
        var fields: [String: String] = [:]
        for line in String(decoding: osRelease, as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let value = line[line.index(after: equals)...].trimmingQuotes
            fields[String(line[..<equals])] = value
        }
        let packages: [String: [String: String]] = [
            "debian": ["11": "libicu67", "12": "libicu72", "13": "libicu76"],
            "ubuntu": ["20.04": "libicu66", "22.04": "libicu70", "24.04": "libicu74", "24.10": "libicu74", "25.04": "libicu76"],
        ]
        if let id = fields["ID"], let version = fields["VERSION_ID"], let package = packages[id]?[version] { return package }
        let family = (fields["ID"] ?? "") + " " + (fields["ID_LIKE"] ?? "")
        if family.contains("fedora") || family.contains("rhel") || family.contains("suse") { return "libicu" }
        if family.contains("arch") || family.contains("alpine") { return "icu" }
        return nil
    }
}

extension Substring {
    fileprivate var trimmingQuotes: String {
        var text = self
        while let first = text.first, first == "\"" || first == "'" { text.removeFirst() }
        while let last = text.last, last == "\"" || last == "'" { text.removeLast() }
        return String(text)
    }
}
