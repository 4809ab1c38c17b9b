// Tests for this module arrive with its issue; SwiftPM needs one source file per target.
