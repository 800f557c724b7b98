import Testing
@testable import Fetch

/// The loop's rule for transfers to one origin: the first opens the connection, the others wait for it.
@Suite struct OriginGateTests {
    let start = ContinuousClock.now

    @Test func laterTransfersWaitForTheFirstOnesConnection() {
        var gate = OriginGate<Int>()
        let admitted = [gate.admit(1, origin: "a:443", at: start), gate.admit(2, origin: "a:443", at: start),
                        gate.admit(3, origin: "a:443", at: start), gate.admit(4, origin: "b:443", at: start)]
        #expect(admitted == [true, false, false, true], "another origin does not wait")
        #expect(gate.heldCount == 2)
        let released = gate.connected(origin: "a:443")
        #expect(released == [2, 3], "in their order")
        #expect(gate.heldCount == 0)
        let again = gate.admit(2, origin: "a:443", at: start)
        #expect(again, "once connected, the origin's transfers start at once")
    }

    @Test func whatWaitsStartsAtOnceWhenTheFirstNeverConnects() {
        var gate = OriginGate<Int>()
        let admitted = [gate.admit(1, origin: "a:443", at: start), gate.admit(2, origin: "a:443", at: start),
                        gate.admit(3, origin: "a:443", at: start)]
        #expect(admitted == [true, false, false])
        let released = gate.finished(origin: "a:443")
        #expect(released == [2, 3])
        let retried = [gate.admit(2, origin: "a:443", at: start), gate.admit(3, origin: "a:443", at: start)]
        #expect(retried == [true, true], "each opens its own, without waiting for the other")
    }

    @Test func aConnectionThatDoesNotComeIsWaitedForOnlySoLong() {
        var gate = OriginGate<Int>(patience: .seconds(2))
        _ = gate.admit(1, origin: "hang:443", at: start)
        _ = gate.admit(2, origin: "hang:443", at: start)
        _ = gate.admit(3, origin: "fine:443", at: start + .seconds(1))
        _ = gate.admit(4, origin: "fine:443", at: start + .seconds(1))
        let early = gate.overdue(at: start + .milliseconds(1999))
        let late = gate.overdue(at: start + .seconds(2))
        #expect(early.isEmpty)
        #expect(late == [2], "only the origin waited on for 2 s")
        let next = gate.admit(5, origin: "hang:443", at: start + .seconds(2))
        #expect(next, "given up waiting: the origin's transfers start")
        #expect(gate.heldCount == 1)
    }

    @Test func anOriginIsForgottenWhenItsLastTransferEnds() {
        var gate = OriginGate<Int>()
        _ = gate.admit(1, origin: "a:443", at: start)
        var released = gate.connected(origin: "a:443")
        _ = gate.admit(2, origin: "a:443", at: start)
        released += gate.finished(origin: "a:443")
        let whileOneIsInFlight = gate.admit(3, origin: "a:443", at: start)
        released += gate.finished(origin: "a:443") + gate.finished(origin: "a:443")
        _ = gate.admit(4, origin: "a:443", at: start)
        let afterTheLast = gate.admit(5, origin: "a:443", at: start)
        #expect(released.isEmpty)
        #expect(whileOneIsInFlight, "still connected while one is in flight")
        #expect(!afterTheLast, "a new transfer after the last ended opens the connection again")
    }

    /// A transfer that could not be started ends at once (`finished`): what it held back goes, and the
    /// origin is not left behind open with nothing in flight.
    @Test func aTransferThatCouldNotStartLeavesNothingBehind() {
        var gate = OriginGate<Int>()
        _ = gate.admit(1, origin: "a:443", at: start)
        _ = gate.admit(2, origin: "a:443", at: start)
        let released = gate.finished(origin: "a:443")
        _ = gate.admit(2, origin: "a:443", at: start)
        let left = gate.finished(origin: "a:443")
        let fresh = [gate.admit(3, origin: "a:443", at: start), gate.admit(4, origin: "a:443", at: start)]
        #expect(released == [2])
        #expect(left.isEmpty)
        #expect(fresh == [true, false], "forgotten: the next transfer opens and the one after waits for it")
    }
}
