/// pm's version: the one place it is written. `pm --version`, the manual
/// pages and `sh Resources/package.sh` (the file names, the .deb's
/// metadata) all take it from here, and a test holds it equal to the
/// newest version CHANGELOG.md names.
enum PMVersion {
    static let string = "0.2.0"
}
