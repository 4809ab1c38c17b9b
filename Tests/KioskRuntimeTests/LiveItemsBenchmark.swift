import Glibc
import DialCore
import KioskSeams
import KioskVocabulary
import LinuxSystem
import Testing
@testable import KioskFeatures
import KioskTestSupport
import KioskLoop

/// Live items' figures against a real mosquitto on loopback (a benchmark that prints, not a
/// timed test; runs only with DIALKIOSK_LIVE_BENCH=1, see scripts/live-bench.sh): MQTT publish
/// to the item's frame presented, p50/p95; and with 50 bound items updating 10 times a second,
/// frames per second and paint time against the same kiosk with no updates.
@Suite(.serialized) struct LiveItemsBenchmark {
    @Test(.enabled(if: getenv("DIALKIOSK_LIVE_BENCH") != nil))
    func publishToGlassAndFiftyItemsAtTenHertz() throws {
        let broker = try TestBroker()
        let sub = try TestSubscriber(broker: broker, subscribe: [])
        let items = (0..<50).map { "  - {id: i\($0), label: \"Item \($0)\", live: {topic: bench/i\($0)}}\n" }.joined()
        let kiosk = try LiveKiosk(config: "items:\n" + items + "\n" + liveMQTTSection(broker))
        try kiosk.loop.start(at: kiosk.loop.now())
        try kiosk.settle(5, sub) { kiosk.service.mqtt?.connection.isConnected == true }
        try kiosk.settle(0.5, sub)

        // Publish -> the frame that shows it presented (the pipe display presents at once).
        var latencies: [Double] = []
        for n in 0..<200 {
            let presented = kiosk.display.presents
            let t0 = monotonicNow()
            try sub.publish("bench/i0", "v\(n)", qos: 0)
            let shown = try kiosk.settle(2, sub) {
                kiosk.display.presents > presented && kiosk.lines("item").last?.contains("\"v\(n)\"") == true
            }
            if shown { latencies.append(monotonicNow() - t0) }
            try kiosk.settle(0.02, sub)
        }
        latencies.sort()
        func ms(_ v: Double) -> String { String(Int((v * 10_000).rounded()) / 10) + "." + String(Int((v * 10_000).rounded()) % 10) }
        let p50 = latencies[latencies.count / 2], p95 = latencies[latencies.count * 95 / 100]
        print("live-bench: publish -> item presented: p50 \(ms(p50)) ms, p95 \(ms(p95)) ms over \(latencies.count) publishes")

        // The same kiosk for 5 s with no updates, then 5 s with 50 items at 10 Hz each.
        func window(_ seconds: Double, publishing: Bool) throws -> (frames: Int, paintMS: Double, lines: Int) {
            let frames = kiosk.display.presents, paints = kiosk.box.paints.count, lines = kiosk.lines("item").count
            let end = monotonicNow() + seconds
            var next = monotonicNow(), round = 0
            while monotonicNow() < end {
                if publishing && monotonicNow() >= next {
                    for i in 0..<50 { try sub.publish("bench/i\(i)", "r\(round)", qos: 0) }
                    round += 1
                    next += 0.1
                }
                try kiosk.step()
                try sub.step(timeoutMS: 0)
            }
            let painted = kiosk.box.paints.dropFirst(paints).map(\.seconds)
            return (kiosk.display.presents - frames, painted.isEmpty ? 0 : painted.reduce(0, +) / Double(painted.count) * 1000,
                    kiosk.lines("item").count - lines)
        }
        let idle = try window(5, publishing: false)
        let busy = try window(5, publishing: true)
        print("live-bench: no updates: \(Double(idle.frames) / 5) frames/s")
        print("live-bench: 50 items x 10 Hz: \(Double(busy.frames) / 5) frames/s, paint \(ms(busy.paintMS / 1000)) ms mean, "
              + "\(busy.lines) item lines in 5 s (2500 messages), resident \(residentKilobytes()) kB")
        #expect(!latencies.isEmpty)
    }

    /// A detent (an encoder's or a wheel's step, as the input source hands it to the service)
    /// on an open value dial -> the frame showing the new value presented, p50/p95: the
    /// service's turn, the flush (at most one per frame), the paint of the hub and the present.
    @Test(.enabled(if: getenv("DIALKIOSK_LIVE_BENCH") != nil))
    func detentToGlass() throws {
        let kiosk = try LiveKiosk(config: """
            items:
              - id: heating
                label: Heating
                value: {min: 16, max: 28, step: 0.5, unit: "°C", commit_after_seconds: 60}
              - {id: tea, label: Tea}

            """)
        try kiosk.loop.start(at: kiosk.loop.now())
        try kiosk.settle(0.3)
        try kiosk.command(.select(path: ["heating"]))
        try kiosk.settle(0.5)
        try kiosk.command(.activate)
        try kiosk.settle(0.3)
        var latencies: [Double] = []
        for n in 0..<200 {
            let presented = kiosk.display.presents, changing = kiosk.lines("value").count
            let t0 = monotonicNow()
            try kiosk.loop.handle(.input([.command(.step(n % 2 == 0 ? 1 : -1), time: kiosk.loop.now())]), at: kiosk.loop.now())
            let shown = try kiosk.settle(2) { kiosk.display.presents > presented }
            if shown { latencies.append(monotonicNow() - t0) }
            try kiosk.settle(0.03)
            #expect(kiosk.lines("value").count > changing)
        }
        latencies.sort()
        func ms(_ v: Double) -> String { String(Int((v * 10_000).rounded()) / 10) + "." + String(Int((v * 10_000).rounded()) % 10) }
        let p50 = latencies[latencies.count / 2], p95 = latencies[latencies.count * 95 / 100]
        print("live-bench: detent -> value presented: p50 \(ms(p50)) ms, p95 \(ms(p95)) ms over \(latencies.count) detents")
        #expect(latencies.count == 200)
    }
}

