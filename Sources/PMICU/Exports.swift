// UTF-8 validation lives in PMText (pure Swift, shared with the build tool);
// every module that imports PMICU keeps seeing it.
@_exported import PMText
