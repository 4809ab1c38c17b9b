/// The name of every JSON event line the program writes (the value of its `"event"` key), the
/// only place the names are spelled: the writers name an event by its case, and
/// `EventVocabulary` gives each case its row (fields, help, writers, Home Assistant). The cases
/// are in the table's order, which `--help`'s lists and docs/reference.md's event table follow.
package enum EventName: String, Sendable, CaseIterable {
    /// The dial is on the glass (after the first flip).
    case started
    /// An item came to rest at the top.
    case selected
    /// The selected item was activated.
    case activated
    /// An item's ring, or its value dial, opened.
    case opened
    /// An item's ring or value dial closed.
    case closed
    /// A configuration was applied.
    case reloaded
    /// The program is about to exit.
    case stopping
    /// The ring stopped moving.
    case rest
    /// A control command could not be carried out (to its client only).
    case error
    /// Texts are shown and spoken in another language from now on.
    case language
    /// The screen went on, dim or off.
    case power
    /// An unavailable item was activated; nothing ran.
    case refused
    /// A value dial's value changing or committed.
    case value
    /// An item's live state changed.
    case item
    /// A pushed configuration's status changed.
    case config
    /// A remote viewer connected or disconnected.
    case viewer
    /// A screenshot was written.
    case screenshot
    /// `simulate` stopped with the ring still moving.
    case unfinished
    /// `list-inputs --watch`: the seat's devices are open.
    case watching
    /// `list-inputs --watch`: a finger's sample.
    case touch
    /// `list-inputs --watch`: a key or wheel command.
    case command
}
