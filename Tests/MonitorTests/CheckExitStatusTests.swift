import Testing
import Monitor
import Vocabulary

/// `check`'s and `verify-app`'s exit status, one rule for both commands and both platforms.
@Suite struct CheckExitStatusTests {
    struct Result: CheckConclusion { var verdict: Verdict; var couldNotCheck: Bool }

    @Test func aResultsStatusAndWord() {
        #expect([Verdict.pass, .warn, .fail].map { Result(verdict: $0, couldNotCheck: false).exitStatus } == [0, 1, 2])
        #expect([Verdict.pass, .warn, .fail].map { Result(verdict: $0, couldNotCheck: true).exitStatus } == [3, 3, 3])
        #expect([Int32(0), 1, 2, 3].map(CheckExitStatus.word) == ["PASS", "WARN", "FAIL", "COULD NOT CHECK"])
    }

    @Test func theWorstOfSeveralPutsErrorsBeforeCouldNotCheck() {
        #expect(CheckExitStatus.worst([]) == 0)
        #expect(CheckExitStatus.worst([0, 1]) == 1)
        #expect(CheckExitStatus.worst([1, 3, 0]) == 3)
        #expect(CheckExitStatus.worst([3, 2, 1]) == 2)
    }
}
