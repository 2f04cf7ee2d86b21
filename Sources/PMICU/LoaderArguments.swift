internal import CICU
import Glibc

/// The program's arguments as the loader handed them to it, as bytes (a C
/// constructor keeps them): nil when they were not seen.
public enum LoaderArguments {
    public static var bytes: [[UInt8]]? {
        let count = Int(pm_argument_count())
        guard count > 0 else { return nil }
        return (0..<count).map { index in
            guard let pointer = pm_argument(Int32(index)) else { return [] }
            return Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
    }
}
