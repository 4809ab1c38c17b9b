import DialCore

extension HomeAssistantDiscovery {
    /// A `number` entity for each value item whose value the kiosk owns (no topic, no command):
    /// its state on `<base>/value/<path>` (retained), commands on `<base>/set/value/<path>`.
    /// Items bound to someone else's topics need no discovery: they are that device's entities.
    package static func numbers(prefix: String, topics: MQTTTopics, menu: MenuTree) -> [(topic: String, payload: EventLine)] {
        let id = topics.clientID
        var out: [(topic: String, payload: EventLine)] = []
        func visit(_ nodes: [MenuNode], ring: MenuPath) {
            for node in nodes {
                let path = ring.appending(node.id)
                if let v = node.item.value, v.ownedByKiosk {
                    // Home Assistant's object ids take letters, digits and '_' (`slug` in `entity`).
                    let object = "value_" + String(path.ids.joined(separator: "_").map { $0 == "." ? "_" : $0 })
                    var fields = entity("number", object, node.item.label, topics: topics) + [
                        ("command_topic", .string(topics.setPrefix + "value/" + path.description)),
                        ("state_topic", .string(topics.base + "/value/" + path.description)),
                        ("min", .number(v.minimum)), ("max", .number(v.maximum)), ("step", .number(v.step)),
                        ("mode", .string("slider")),
                    ]
                    if let unit = v.unit { fields.append(("unit_of_measurement", .string(unit))) }
                    out.append(("\(prefix)/number/\(id)/\(object)/config", EventLine(fields)))
                }
                if let children = node.children { visit(children, ring: path) }
            }
        }
        visit(menu.top, ring: .top)
        return out
    }
}
