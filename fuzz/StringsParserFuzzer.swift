// libFuzzer harness for pm's strict .strings parser and message formats.
// Built by fuzz/run (swiftc -sanitize=fuzzer,address); see Localization/README.md.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStringsTable(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let table = StringsTableParser.parse(bytes: bytes)
    for problem in table.problems where problem.line < 1 {
        fatalError("problem without a line: \(problem)")
    }
    for entry in table.entries {
        // Every value a table can hold goes through the placeholder parser and renderer too.
        if let format = try? MessageFormat(parsing: entry.value) {
            _ = format.render([.text("x"), .number(1), .text("y")])
            _ = format.pseudoLocalized().render([])
        }
    }
    return 0
}
