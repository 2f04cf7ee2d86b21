import Foundation
import PMTestSupport
import Testing

/// Another ICU version, simulated (issue 24): a shim pair `libicuuc.so.99` /
/// `libicui18n.so.99` whose every function pm uses is named `NAME_99` and
/// jumps to this system's `NAME_N`. pm must find version 99 by its files,
/// resolve the `_99` names, and format exactly as with the system's ICU.
@Suite struct ICUShimTests {
    /// The function names pm resolves, as load.c lists them.
    static func functionNames() throws -> [String] {
        let source = try String(
            contentsOf: PMBinary.packageRoot.appendingPathComponent("Sources/CICU/load.c"), encoding: .utf8)
        guard let start = source.range(of: "function_names[F_COUNT] = {"),
            let end = source.range(of: "};", range: start.upperBound..<source.endIndex)
        else { return [] }
        return source[start.upperBound..<end.lowerBound].split(separator: "\"").enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// C for the shim: each `NAME_99` a jump through a table its constructor
    /// fills from the real library (arguments pass through untouched).
    static func shimSource(names: [String], real: Int, folder: String) -> String {
        var c = """
            #include <dlfcn.h>
            #include <stdio.h>
            #include <stdlib.h>
            __attribute__((visibility("hidden"), used)) void *pm_shim_real[\(names.count)];
            static const char *const pm_shim_names[] = {\(names.map { "\"\($0)\"" }.joined(separator: ", "))};
            __attribute__((constructor)) static void pm_shim_init(void) {
                void *uc = dlopen("\(folder)/libicuuc.so.\(real)", RTLD_NOW | RTLD_LOCAL);
                void *i18n = dlopen("\(folder)/libicui18n.so.\(real)", RTLD_NOW | RTLD_LOCAL);
                char name[64];
                for (int i = 0; i < \(names.count); i++) {
                    snprintf(name, sizeof name, "%s_\(real)", pm_shim_names[i]);
                    pm_shim_real[i] = i18n ? dlsym(i18n, name) : 0;
                    if (!pm_shim_real[i] && uc) pm_shim_real[i] = dlsym(uc, name);
                }
                const char *mark = getenv("PM_SHIM_MARK");
                FILE *file = mark ? fopen(mark, "a") : 0;
                if (file) { fputs("loaded\\n", file); fclose(file); }
            }

            """
        for (index, name) in names.enumerated() {
            c += "__attribute__((naked)) void \(name)_99(void) { __asm__(\"jmp *pm_shim_real+\(index * 8)(%rip)\"); }\n"
        }
        return c
    }

    @Test func aSecondVersionIsFoundByItsFilesAndItsSuffixedNames() throws {
        let folder = try ICULoadingTests.systemICUFolder()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        let real = try #require(
            names.compactMap { name -> Int? in
                guard name.hasPrefix("libicuuc.so.") else { return nil }
                return Int(name.dropFirst("libicuuc.so.".count).prefix { $0.isNumber })
            }.max())
        let functions = try Self.functionNames()
        #expect(functions.count >= 30 && functions.contains("ucol_open"), "\(functions)")
        let shim = TemporaryDirectory()
        let source = shim.file("shim.c")
        try Self.shimSource(names: functions, real: real, folder: folder).write(
            toFile: source, atomically: true, encoding: .utf8)
        let compiler = ["/opt/swift/usr/bin/clang", "/usr/bin/clang", "/usr/bin/cc"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let cc = try #require(compiler, "a C compiler (the Swift toolchain's clang)")
        let build = try runChild(cc, ["-shared", "-fPIC", "-O1", "-o", shim.file("libicuuc.so.99"), source, "-ldl"])
        #expect(build.status == 0, "\(String(decoding: build.stderr, as: UTF8.self))")
        try FileManager.default.copyItem(atPath: shim.file("libicuuc.so.99"), toPath: shim.file("libicui18n.so.99"))
        // The shim names only `_99`: a pm that looked for the system's suffix would not find it there.
        let mark = shim.file("mark")
        var expected: [String: String] = [:]
        for language in ["fr_FR.UTF-8", "ko_KR.UTF-8", "en_US.UTF-8"] {
            let pm = try ICULoadingTests().board(language)
            let system = try pm.run(["list", "--sort", "title"])
            expected[language] = system.stdout
            let shimmed = try pm.run(
                ["list", "--sort", "title"], ["PM_ICU_LIBRARY_PATH": shim.path, "PM_SHIM_MARK": mark])
            #expect(shimmed.status == 0 && shimmed.stderr.isEmpty, "\(shimmed.stderr)")
            #expect(shimmed.stdout == system.stdout, "\(language): the shim formats as ICU \(real) does")
            // Naming the version finds it too; a version the folder lacks is the invariant mode, said once.
            let named = try pm.run(
                ["list", "--sort", "title"], ["PM_ICU_LIBRARY_PATH": shim.path, "PM_ICU_VERSION": "99"])
            #expect(named.stdout == system.stdout)
            let missing = try pm.run(["list"], ["PM_ICU_LIBRARY_PATH": shim.path, "PM_ICU_VERSION": "\(real)"])
            #expect(missing.status == 0 && missing.stdout.contains("2026-12-01") && !missing.stderr.isEmpty)
        }
        let loads = (try? String(contentsOfFile: mark, encoding: .utf8)) ?? ""
        #expect(loads.components(separatedBy: "loaded").count - 1 >= 6, "the shim was loaded: \(loads)")
        #expect(expected["fr_FR.UTF-8"]?.contains("déc.") == true, "French dates came from ICU")
    }
}
