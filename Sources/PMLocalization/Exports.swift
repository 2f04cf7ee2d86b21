// The .strings parser lives in PMText (pure Swift, shared with the build
// tool that compiles the tables); PMLocalization's clients keep seeing it.
@_exported import PMText
