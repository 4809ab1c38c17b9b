/// What a session has set up, each with its one teardown, released in reverse order of
/// acquisition: a setup that fails at any step and the normal end both go through
/// `releaseAll`, so exactly what was set up is released, once.
package final class ResourceStack {
    private var held: [(name: String, release: () -> Void)] = []

    /// What is held, in the order it was acquired.
    var names: [String] { held.map(\.name) }

    /// Sets up one resource; when `make` succeeds, `release` is pushed for it. When it throws,
    /// nothing is pushed (the caller releases what came before).
    func acquire<Resource>(_ name: String, _ make: @autoclosure () throws -> Resource,
                           release: @escaping (Resource) -> Void) rethrows -> Resource {
        let resource = try make()
        held.append((name, { release(resource) }))
        return resource
    }

    /// Releases everything held, the last acquired first. Safe twice: a released resource
    /// leaves the stack before its teardown runs.
    func releaseAll() {
        while let last = held.popLast() { last.release() }
    }
}
