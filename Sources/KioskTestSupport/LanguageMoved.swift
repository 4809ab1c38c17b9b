import KioskFeatures

extension LegacyService {
    /// Kept only so the tests that still read it from the remainder compile: the return's deadline
    /// is `LanguageSwitch.returnDeadline` now (`FeatureRouter.languages`), which the remainder
    /// does not know. Always nil; remove with the last test that reads it.
    @available(*, deprecated, message: "read FeatureRouter.languages.returnDeadline")
    package var languageReturnDeadline: Double? { nil }
}
