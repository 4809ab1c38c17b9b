// The control commands and their table live in KioskVocabulary (no C module); the service's
// clients see them through this module, as they did when the commands were defined here.
@_exported import KioskVocabulary
