/// A painter's disc sprites, one per quarter-pixel radius, shared by all items, in a cache
/// bounded by bytes (least recently used dropped first). `prepare(_:first:)` fills it before
/// the first frame with the radii a spin draws, those at rest first, while they fit; the others
/// are built when first drawn.
final class DiscSpriteCache {
    /// The default bound. Every radius a spin draws fits at 1920x1080 with 24 items and at
    /// 800x480; with the demo menu's 10 big discs at 1920x1080, whose sprites of every radius
    /// are more than twice the bound, the sizes at rest and the largest part of the range fit
    /// (docs/measurements.md).
    static let defaultBound = 4 << 20

    private let theme: Theme
    private var cache: BoundedCache<Int, DiscSprite>
    /// Quarter pixels of radius between two sprites (1: every quarter pixel). A larger frame's
    /// discs are larger (a sprite's bytes grow with the square of its radius, their number with
    /// the radius), and the sprites of every radius a spin draws may not fit its budget at a
    /// quarter pixel; `prepare` then chooses a coarser
    /// step, which is the same step relative to the disc as a quarter pixel on a smaller frame.
    /// Changing it drops the sprites.
    var step = 1 {
        didSet { if step != oldValue { cache.removeAll() } }
    }
    /// Sprites built so far, prepared or not.
    private(set) var builtCount = 0
    /// Sprites built by `sprite(radius:)`, in a frame (for tests and the bench).
    private(set) var builtOnDemandCount = 0

    init(theme: Theme, bound: Int = DiscSpriteCache.defaultBound) {
        self.theme = theme
        cache = BoundedCache(bound: bound) { $0.byteCount }
    }

    /// The cache key of `radius`: quarter pixels.
    static func key(_ radius: Double) -> Int { Int((radius * 4).rounded()) }

    /// The key of `radius` on this cache's step (a multiple of `step` quarter pixels).
    func key(_ radius: Double) -> Int {
        step == 1 ? Self.key(radius) : Int((radius * 4 / Double(step)).rounded()) * step
    }

    /// The sprite for `radius`, quantised to `step` quarter pixels.
    func sprite(radius: Double) -> DiscSprite {
        let key = key(radius)
        if let hit = cache.get(key) { return hit }
        builtOnDemandCount += 1
        let sprite = make(key)
        cache.insert(sprite, for: key)
        return sprite
    }

    /// Builds the sprites of `keys` (the sizes a spin draws) that are not cached yet, the keys
    /// in `first` before the others, and stops before one would push out a sprite of `keys`.
    /// Returns how many of `keys` are cached.
    @discardableResult
    func prepare(_ keys: [Int], first: [Int] = []) -> Int {
        let wanted = Set(keys)
        let order = first.filter { wanted.contains($0) } + keys.filter { !first.contains($0) }
        for key in order {
            if cache.get(key) != nil { continue }
            let sprite = make(key)
            let droppable = cache.bytes(notKept: { wanted.contains($0) })
            guard cache.bytes - droppable + sprite.byteCount <= cache.bound else { break }
            cache.insert(sprite, for: key)
        }
        return keys.filter { cache.contains($0) }.count
    }

    /// The sprite of `key` (quarter pixels), built and not cached: what `prepare` measures to
    /// estimate the bytes of a range.
    func built(_ key: Int) -> DiscSprite { make(key) }

    /// The cached sprite of `key`, if any, marked as just used.
    func cached(_ key: Int) -> DiscSprite? { cache.get(key) }

    /// Adds a sprite built by `built(_:)`.
    func insert(_ sprite: DiscSprite, for key: Int) { cache.insert(sprite, for: key) }

    /// Bytes the cache may hold (lowering it drops the least recently used), and holds.
    var bound: Int {
        get { cache.bound }
        set { cache.bound = newValue }
    }
    var bytes: Int { cache.bytes }
    /// How many sprites are cached, and how many were dropped for the bound.
    var count: Int { cache.count }
    var evictedCount: Int { cache.evictedCount }

    /// Whether the sprite of `key` is cached (for tests).
    func contains(_ key: Int) -> Bool { cache.contains(key) }

    /// Drops every sprite (the next frames build what they draw).
    func removeAll() { cache.removeAll() }

    private func make(_ key: Int) -> DiscSprite {
        builtCount += 1
        let r = Double(key) / 4
        return DiscSprite(radius: r, bottomShade: theme.itemBottomShade, shadowBlur: r * theme.shadowBlurRatio,
                          shadowOffset: r * theme.shadowOffsetRatio, shadowOpacity: theme.shadowOpacity)
    }
}
