// PMCore: the board and everything that changes it, with no terminal, no
// ArgumentParser, no environment and no clock of its own (STYLE.md).
//
// A folder is a room:
// - Board/      the domain: tasks, states, the use cases that change a board,
//               input checks, id lookup.
// - EventLog/   the events a change is made of, one JSON line each, and the
//               append-only log file they live in (DESIGN.md §4).
// - Codec/      the strict JSON reader and writer, and the board file's format.
// - Storage/    files on disk: the file-system seam, the writers' lock, atomic
//               replacement, the board store, exports.
// - Undo/       per-user undo and redo stacks and their state file.
// - Time/       calendar dates, timestamps, time zones (POSIX `TZ` too), date input.
// - Deadlines/  reminders and the iCalendar export.
// - PMEnvironment.swift, PMError.swift: the injected world and the typed errors.
