import Testing
@testable import KioskSeams

@Suite struct PageFlipStateTests {
    @Test func nothingPostedNeedsAModesetIntoBufferZero() {
        let s = PageFlipState.nothingPosted
        #expect(s.nextShowCall == .setCrtc)
        #expect(s.writableBuffer(count: 2) == 0)
        #expect(s.front == nil)
        #expect(!s.isFlipPending)
    }

    @Test func modesetSetsTheFrontBuffer() {
        #expect(PageFlipState.nothingPosted.after(.crtcSet(buffer: 0)) == .firstBufferSet(front: 0))
        let s = PageFlipState.firstBufferSet(front: 0)
        #expect(s.nextShowCall == .pageFlip)
        #expect(s.writableBuffer(count: 2) == 1)
    }

    @Test func queuedFlipBlocksWritingAndFurtherFlips() {
        let s = PageFlipState.firstBufferSet(front: 0).after(.flipQueued(buffer: 1))
        #expect(s == .waitingForFlip(front: 0, pending: 1))
        #expect(s?.writableBuffer(count: 2) == nil)
        #expect(s?.writableBuffer(count: 3) == nil)
        #expect(s?.nextShowCall == nil)
        #expect(s?.isFlipPending == true)
        #expect(s?.after(.flipQueued(buffer: 0)) == nil)
        #expect(s?.after(.crtcSet(buffer: 0)) == nil)
    }

    @Test func flipEventMakesThePendingBufferTheFront() {
        let s = PageFlipState.waitingForFlip(front: 0, pending: 1).after(.flipCompleted)
        #expect(s == .ready(front: 1))
        #expect(s?.writableBuffer(count: 2) == 0)
        #expect(s?.writableBuffer(count: 3) == 2)
        #expect(s?.nextShowCall == .pageFlip)
    }

    @Test func flipAfterModesetToTheSameBufferKeepsBothBuffersSafe() {
        // The presenter queues a flip to the buffer it just set, so the modeset frame gets a
        // real flip event like every other frame.
        var s = PageFlipState.nothingPosted
        s = s.after(.crtcSet(buffer: 0))!
        s = s.after(.flipQueued(buffer: 0))!
        #expect(s == .waitingForFlip(front: 0, pending: 0))
        #expect(s.writableBuffer(count: 2) == nil)
        s = s.after(.flipCompleted)!
        #expect(s.writableBuffer(count: 2) == 1)
    }

    @Test func unexpectedFlipEventIsRejected() {
        #expect(PageFlipState.nothingPosted.after(.flipCompleted) == nil)
        #expect(PageFlipState.ready(front: 1).after(.flipCompleted) == nil)
        #expect(PageFlipState.firstBufferSet(front: 0).after(.flipCompleted) == nil)
        #expect(PageFlipState.nothingPosted.after(.flipQueued(buffer: 0)) == nil)
    }

    @Test func losingTheOutputFromAnyStateNeedsAModesetAgain() {
        let all: [PageFlipState] = [.nothingPosted, .firstBufferSet(front: 1), .waitingForFlip(front: 0, pending: 1), .ready(front: 1),
                                    .waitingForFirstFlip(pending: 0)]
        for s in all {
            #expect(s.after(.outputLost) == .nothingPosted)
        }
    }

    @Test func firstFlipOntoTheRunningModeWaitsForItsEventBeforeAnyWrite() {
        // No modeset: the first frame is flipped over a framebuffer that is not ours.
        let s = PageFlipState.nothingPosted.after(.firstFlipQueued(buffer: 0))
        #expect(s == .waitingForFirstFlip(pending: 0))
        #expect(s?.front == nil)
        #expect(s?.isFlipPending == true)
        #expect(s?.writableBuffer(count: 2) == nil)
        #expect(s?.nextShowCall == nil)
        #expect(s?.after(.flipQueued(buffer: 1)) == nil)
        #expect(s?.after(.crtcSet(buffer: 1)) == nil)
        #expect(s?.after(.flipCompleted) == .ready(front: 0))
        // Only as the first frame: once something of ours was shown, it is a plain flip.
        #expect(PageFlipState.ready(front: 0).after(.firstFlipQueued(buffer: 1)) == nil)
        #expect(PageFlipState.firstBufferSet(front: 0).after(.firstFlipQueued(buffer: 1)) == nil)
    }

    @Test func readyAcceptsAModesetAfterAResume() {
        #expect(PageFlipState.ready(front: 1).after(.crtcSet(buffer: 0)) == .firstBufferSet(front: 0))
    }

    @Test func ringAlternatesAndNeverHandsOutTheFront() {
        var s = PageFlipState.nothingPosted
        var written: [Int] = []
        for _ in 0..<6 {
            let b = s.writableBuffer(count: 2)!
            #expect(b != s.front)
            written.append(b)
            s = s.nextShowCall == .setCrtc ? s.after(.crtcSet(buffer: b))! : s.after(.flipQueued(buffer: b))!.after(.flipCompleted)!
        }
        #expect(written == [0, 1, 0, 1, 0, 1])
    }

    @Test func singleBufferRingCannotBeWrittenOnceShown() {
        #expect(PageFlipState.ready(front: 0).writableBuffer(count: 1) == nil)
        #expect(PageFlipState.nothingPosted.writableBuffer(count: 0) == nil)
    }

    /// KMSDisplay took an impossible step with `?? flipState` and went on
    /// silently; `applying` says what happened and where the state went.
    @Test func anImpossibleStepIsReportedNotIgnored() {
        var said: [String] = []
        let idle = PageFlipState.ready(front: 1)
        #expect(idle.applying(.flipCompleted) { said.append($0) } == idle)
        #expect(said == ["display: page flip state ready(front: 1) cannot take flipCompleted; now ready(front: 1)"])
        let pending = PageFlipState.waitingForFlip(front: 0, pending: 1)
        #expect(pending.applying(.flipQueued(buffer: 0), otherwise: .nothingPosted) { said.append($0) } == .nothingPosted)
        #expect(said.count == 2)
        #expect(pending.applying(.flipCompleted) { said.append($0) } == .ready(front: 1))
        #expect(said.count == 2, "a possible step says nothing")
    }
}
