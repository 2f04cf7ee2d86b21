// PMViews: what a person reads, made from typed results, for every front
// end. `pm` in a terminal, `pm board` and the web board say each sentence,
// column and field name, date and refusal from here, so that they say it
// alike. No terminal, no ArgumentParser, no front end underneath; exit
// codes, options and output stay in PMCLI. Declarations are `package`:
// shared by pm's own targets, an API of nobody else's.
//
// - Style.swift           TextStyle: dates and times in the reader's locale
//                         and zone (and a terminal's colours, off for others).
// - StateNames.swift      column names, and a column named as a person types it.
// - FieldNames.swift      a task field's name and values (conflicts, history).
// - TaskFields.swift      every field of one task, labelled, as `pm show` lists them.
// - Sentences.swift       what a change, an undo or a redo did.
// - HistoryView.swift     history lines and the sentence of each change.
// - SessionNotices.swift  what a session says besides a use case's answer.
// - ErrorMessages*.swift  the message of every PMError and SessionError.
// - ShellWord.swift       a word quoted for a command a message gives to paste.
