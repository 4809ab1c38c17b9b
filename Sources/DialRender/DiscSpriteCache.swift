/// A painter's disc sprites, one per quarter-pixel radius, shared by all items: the ones
/// `prepare(_:)` builds for the radii a spin draws are kept, the others are built on demand and
/// dropped all together once they pass the budget.
final class DiscSpriteCache {
    /// Sprites built on demand beyond this many bytes are dropped; the prepared ones stop at it.
    static let budget = 48 << 20

    private let theme: Theme
    private var built: [Int: DiscSprite] = [:]
    private var builtBytes = 0
    /// Prepared sprites by key from `preparedKeys`' lower bound (an array: no hashing in a frame).
    private var prepared: [DiscSprite] = []
    private var preparedKeys: ClosedRange<Int>?
    /// Bytes of the prepared sprites.
    private(set) var preparedBytes = 0

    init(theme: Theme) {
        self.theme = theme
    }

    /// The cache key of `radius`: quarter pixels.
    static func key(_ radius: Double) -> Int { Int((radius * 4).rounded()) }

    /// The sprite for `radius`, quantised to a quarter pixel.
    func sprite(radius: Double) -> DiscSprite {
        let key = Self.key(radius)
        if let d = preparedSprite(key) ?? built[key] { return d }
        if builtBytes > Self.budget {
            built.removeAll()
            builtBytes = 0
        }
        let sprite = make(key)
        built[key] = sprite
        builtBytes += sprite.byteCount
        return sprite
    }

    /// Builds the sprites of the keys `keys` (the sizes a spin draws), smallest first, up to the
    /// budget. Sprites already built are taken over, not built again.
    func prepare(_ keys: ClosedRange<Int>) {
        if keys == preparedKeys { return }
        var sprites: [DiscSprite] = [], bytes = 0
        for key in keys {
            let sprite = preparedSprite(key) ?? built[key] ?? make(key)
            guard bytes + sprite.byteCount <= Self.budget else { break }
            bytes += sprite.byteCount
            sprites.append(sprite)
        }
        prepared = sprites
        preparedKeys = keys
        preparedBytes = bytes
    }

    /// How many sprites are prepared, and how many were built on demand (for tests).
    var preparedCount: Int { prepared.count }
    var builtOnDemandCount: Int { built.count }

    private func preparedSprite(_ key: Int) -> DiscSprite? {
        guard let first = preparedKeys?.lowerBound, key >= first, key - first < prepared.count else { return nil }
        return prepared[key - first]
    }

    private func make(_ key: Int) -> DiscSprite {
        let r = Double(key) / 4
        return DiscSprite(radius: r, bottomShade: theme.itemBottomShade, shadowBlur: r * theme.shadowBlurRatio,
                          shadowOffset: r * theme.shadowOffsetRatio, shadowOpacity: theme.shadowOpacity)
    }
}
