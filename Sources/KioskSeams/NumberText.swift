/// The two ways this program writes a Double as text, without Foundation.
///
/// - `fixed(_:_:)`: a set number of decimals, for log lines, tables and summaries people read.
/// - `shortestExact(_:)`: the shortest text that reads back as the same Double, for JSON, so a
///   reader of the event lines gets back exactly the value the dial computed.

/// `value` rounded to `digits` decimals: `fixed(59.9401, 2)` is "59.94", `fixed(60, 2)` "60.00".
/// With `trimmed`, trailing zeros (and a trailing dot) are left off: "59.94", "60".
public func fixed(_ value: Double, _ digits: Int, trimmed: Bool = false) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<max(0, digits) { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    // Beyond Int's range the decimals carry no information: the shortest form says it.
    guard scaled < 9.0e18 else { return shortestExact(value) }
    let n = Int(scaled)
    let whole = n / Int(scale)
    var frac = digits > 0 ? String(n % Int(scale)) : ""
    while frac.count < digits { frac = "0" + frac }
    if trimmed { while frac.last == "0" { frac.removeLast() } }
    let sign = value < 0 && n != 0 ? "-" : ""
    return frac.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(frac)"
}

/// The shortest decimal text that parses back to exactly `value` ("0.1", "60.0", "1e-07");
/// JSON's `null` for infinities and NaN, which JSON cannot carry.
public func shortestExact(_ value: Double) -> String {
    value.isFinite ? "\(value)" : "null"
}
