import Foundation

func createDirectory(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
}

extension String {
    func write(toFile path: String) throws {
        try Data(self.utf8).write(to: URL(fileURLWithPath: path))
    }
}
