import Testing
@testable import HTTP

extension ConnectionState {
    mutating func receive(_ text: String, now: UInt64 = 0) {
        Array(text.utf8).withUnsafeBytes { receive($0, now: now) }
    }
}

@Suite struct ConnectionStateTests {
    @Test func pipelinedRequestsAreDispatchedOneAtATimeInOrder() {
        var state = ConnectionState(limits: HTTPLimits())
        state.receive("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\nGET /3 HT")
        guard case .dispatch(let first) = state.nextAction(now: 1) else { Issue.record("no first"); return }
        #expect(first.path == "/1")
        // The second waits until the first is answered, so answers leave in order.
        guard case .none = state.nextAction(now: 1) else { Issue.record("dispatched early"); return }
        #expect(state.awaitingResponse)
        state.responseQueued(keepAlive: true, now: 2)
        guard case .dispatch(let second) = state.nextAction(now: 2) else { Issue.record("no second"); return }
        #expect(second.path == "/2")
        state.responseQueued(keepAlive: true, now: 3)
        guard case .none = state.nextAction(now: 3) else { Issue.record("third is incomplete"); return }
        #expect(state.isReceivingRequest)
        #expect(state.requestStartedAt == 3)
        state.receive("TP/1.1\r\nHost: h\r\n\r\n", now: 4)
        guard case .dispatch(let third) = state.nextAction(now: 4) else { Issue.record("no third"); return }
        #expect(third.path == "/3")
        state.responseQueued(keepAlive: true, now: 5)
        #expect(state.isIdle)
        #expect(state.requestStartedAt == nil)
        #expect(!state.closesAfterOutput)
    }

    @Test func readClockStartsAtFirstByteAndIsNotResetByMoreBytes() {
        var state = ConnectionState(limits: HTTPLimits())
        #expect(state.isIdle)
        state.receive("G", now: 10)
        #expect(state.requestStartedAt == 10)
        state.receive("E", now: 20)
        #expect(state.requestStartedAt == 10)
        _ = state.nextAction(now: 20)
        #expect(state.isReceivingRequest)
    }

    @Test func closeRequestedClosesAfterTheResponse() {
        var state = ConnectionState(limits: HTTPLimits())
        state.receive("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\nGET /ignored HTTP/1.1\r\nHost: h\r\n\r\n")
        guard case .dispatch(let r) = state.nextAction(now: 0) else { Issue.record("no request"); return }
        #expect(!r.keepAlive)
        state.responseQueued(keepAlive: false, now: 0)
        #expect(state.closesAfterOutput)
        guard case .none = state.nextAction(now: 0) else { Issue.record("read past close"); return }
    }

    @Test func malformedInputIsRejectedOnce() {
        var state = ConnectionState(limits: HTTPLimits())
        state.receive("BLAH\r\n\r\n")
        guard case .reject(let status) = state.nextAction(now: 0) else { Issue.record("not rejected"); return }
        #expect(status == .badRequest)
        #expect(state.closesAfterOutput)
        guard case .none = state.nextAction(now: 0) else { Issue.record("acted after reject"); return }
    }

    @Test func peerHangingUpMidRequestCloses() {
        var state = ConnectionState(limits: HTTPLimits())
        state.receive("GET / HTTP/1.1\r\nHo")
        _ = state.nextAction(now: 0)
        state.endOfInput()
        guard case .none = state.nextAction(now: 0) else { Issue.record("unexpected action"); return }
        #expect(state.closesAfterOutput)
    }

    @Test func requestBeforeHangUpIsStillAnswered() {
        var state = ConnectionState(limits: HTTPLimits())
        state.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        state.endOfInput()
        guard case .dispatch = state.nextAction(now: 0) else { Issue.record("not dispatched"); return }
        #expect(!state.closesAfterOutput)
        state.responseQueued(keepAlive: true, now: 0)
        #expect(state.closesAfterOutput)
    }

    @Test func expectContinueComesBeforeDispatch() {
        var state = ConnectionState(limits: HTTPLimits())
        state.receive("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        guard case .sendContinue = state.nextAction(now: 0) else { Issue.record("no continue"); return }
        guard case .none = state.nextAction(now: 0) else { Issue.record("continue twice"); return }
        state.receive("ok")
        guard case .dispatch(let r) = state.nextAction(now: 0) else { Issue.record("not dispatched"); return }
        #expect(r.body == Array("ok".utf8))
    }
}
