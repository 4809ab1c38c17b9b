import DialCore
import KioskSeams

/// The title above the dial and the hint below it, and a round panel's edge: what a kiosk paints
/// around the dial, into the painter's background (`DialPainter.backgroundExtras`), so a frame
/// costs nothing for them. Owns its own font handles; used from the painter's thread.
public final class DialWords {
    /// The texts in every language.
    public let titleText: LocalizedText?
    public let hintText: LocalizedText?
    /// The language they are shown in (nil: the default).
    public var language: String?
    public var title: String? { titleText?.text(in: language) }
    public var hint: String? { hintText?.text(in: language) }
    public let shape: DisplayShape
    public let maxScale: Double
    private let theme: Theme
    private let text: TextRenderer

    public init(theme: Theme, shape: DisplayShape = .rectangle, maxScale: Double = 1.33,
                title: LocalizedText? = nil, hint: LocalizedText? = nil, language: String? = nil) throws {
        self.theme = theme
        self.shape = shape
        self.maxScale = maxScale
        titleText = title
        hintText = hint
        self.language = language
        text = try TextRenderer(catalog: try FontCatalog(), fontName: theme.hubFontName)
    }

    /// One band's text as it is drawn: where, and whether it was cut or there is no room.
    public struct Placed {
        public var words: FittedWords?
        public var centerY: Int
        /// The band is under one and a half lines of the text: nothing is drawn.
        public var noRoom: Bool
    }

    /// The title (`top`) or the hint on a `width` x `height` frame around `g`. On a round
    /// panel there is no band outside the dial's circle.
    public func place(_ top: Bool, geometry g: DialGeometry, width: Int, height: Int) -> Placed? {
        guard let words = top ? title : hint, !words.isEmpty else { return nil }
        let bands = DialBands(geometry: g, maxScale: maxScale, width: width, height: height)
        let px = DialBands.textPixels(width: width, height: height, minimum: theme.minimumLabelPixels)
        let rows = shape == .round ? 0 : (top ? bands.topRows : bands.bottomRows)
        guard DialBands.fits(rows: rows, pixels: px) else { return Placed(words: nil, centerY: 0, noRoom: true) }
        let fitted = text.bandLine(words, nominalPx: px, minPx: min(px, theme.minimumLabelPixels * 1.4),
                                   width: Double(width) * 0.92)
        let center = top ? rows / 2 : bands.bottom + rows / 2
        return Placed(words: fitted, centerY: center, noRoom: false)
    }

    /// Paints the title and hint into `buffer` (the background being painted for `g`), then on
    /// a round panel the background's plain gradient over everything outside the inscribed
    /// circle (the glow behind the dial reaches past it).
    public func paint(into buffer: inout PixelBuffer, geometry g: DialGeometry) {
        for top in [true, false] {
            guard let placed = place(top, geometry: g, width: buffer.width, height: buffer.height),
                  let mask = placed.words?.mask else { continue }
            buffer.draw(mask, x: buffer.width / 2, y: placed.centerY, color: theme.hubTextColor)
        }
        if shape == .round { Self.clearOutsideCircle(&buffer, theme: theme) }
    }

    /// Sets every pixel whose centre lies outside the inscribed circle to the background
    /// gradient's colour there.
    public static func clearOutsideCircle(_ buffer: inout PixelBuffer, theme: Theme) {
        let w = buffer.width, h = buffer.height
        // The gradient is dithered by column phase (x mod 4): four columns hold every variant.
        var column = PixelBuffer(width: 4, height: h)
        column.fillVerticalGradient(top: theme.backgroundTop, bottom: theme.backgroundBottom)
        let round = RoundFrame(width: w, height: h)
        let r2 = round.radius * round.radius
        for y in 0..<h {
            let dy = Double(y) + 0.5 - round.center.y
            let inside = r2 - dy * dy
            // Columns whose centre is inside: |x + 0.5 - cx| <= sqrt(inside).
            var x0 = w, x1 = w
            if inside >= 0 {
                let half = inside.squareRoot()
                x0 = max(0, min(w, Int((round.center.x - half - 0.5).rounded(.up))))
                x1 = max(x0, min(w, Int((round.center.x + half - 0.5).rounded(.down)) + 1))
            }
            for x in 0..<x0 { buffer[x, y] = column[x & 3, y] }
            for x in x1..<w { buffer[x, y] = column[x & 3, y] }
        }
    }
}

extension DialWords {
    /// Whether `description` is cut with an ellipsis in the hub of `g` (for `check-config`).
    public func descriptionIsCut(_ description: String, geometry g: DialGeometry) -> Bool {
        HubWords.fitDescription(text, description, theme: theme, geometry: g).ellipsised
    }
}
