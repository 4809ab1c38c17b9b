import Testing
import DialCore
import KioskConfiguration
@testable import KioskSeams
@testable import DialKioskApp
@testable import KioskRuntime

/// `bench`'s spin runs on the virtual display `run` uses, which primes its scanout buffers with
/// the resting frame: the first frame of the first spin finds the other buffer holding that
/// picture and copies only its damage, not a whole frame.
@Suite struct BenchSpinTests {
    @Test func theFirstSpinsFirstFrameCopiesOnlyItsDamage() throws {
        let panel = FrameSize(width: 320, height: 240)
        let recipe = SceneRecipe(rotation: .none, items: 10)
        let setup = recipe.setup(KioskConfig(), panelWidth: panel.width, panelHeight: panel.height)
        let spin = try BenchSpin(recipe: recipe, setup: setup, panel: panel, buffers: 2)
        let frame = panel.width * panel.height * 4
        let first = try #require(spin.bytes.first)
        #expect(first < frame / 2, "first frame wrote \(first) of \(frame) bytes")
        #expect(first <= 2 * (spin.bytes.dropFirst().max() ?? 0))
    }
}
