import DialCore

extension DialPainter {
    /// Shows every text in `language` from the next frame on (`MenuItem.translated(to:)`; the
    /// items keep their texts in every language): labels, descriptions, title and hint. The
    /// frame after it repaints the background and refits the labels, nothing else changes.
    public func setLanguage(_ language: String?) {
        setTexts(items.map { $0.translated(to: language) })
        words?.language = language
    }
}
