/// A word as a POSIX shell reads it back unchanged, for commands a message
/// gives to paste: left as it is when it holds only characters no shell
/// treats specially, otherwise in single quotes.
package enum ShellWord {
    package static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.value > 127
                    ? scalar.properties.isAlphabetic
                    : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%+=:,./_-".unicodeScalars.contains(scalar)
            }
        return plain ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
