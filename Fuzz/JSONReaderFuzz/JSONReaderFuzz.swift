// libFuzzer target for the located JSON reader (LocatedJSON), built by scripts/fuzz against the
// Vocabulary and LocatedJSON modules compiled from source.
//
// Beyond "does not crash", it checks what the reader promises its callers:
// - every value's and finding's position lies inside the input, and values come in byte order;
// - Foundation's JSONSerialization is the independent second opinion: what it accepts, the reader
//   reads too (possibly with findings, since it is stricter about trailing commas), to the same
//   values; and what the reader reads without a single finding, Foundation accepts.

import Foundation
import LocatedJSON
import Vocabulary

/// The reader names its findings by the calling format; any codes do for fuzzing.
private let kinds: JSONFindingKinds = {
    func kind(_ code: String) -> FindingDefinition {
        FindingDefinition(code, .error, affects: "", condition: "", source: "fuzz", producer: "fuzz")
    }
    return JSONFindingKinds(invalidJSON: kind("invalid-json"), invalidUTF8: kind("invalid-utf8"),
                            duplicateKey: kind("duplicate-key"), nestingTooDeep: kind("nesting-too-deep"),
                            expectedDocument: "a JSON value", truncated: kind("findings-truncated"))
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let (value, collector, failed) = JSONReader.read(SourceText(bytes: bytes), kinds: kinds)
    let findings = collector.finish()
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    for finding in findings {
        if let line = finding.location?.line, let column = finding.location?.column {
            check(line >= 1 && line <= lines && column >= 1 && column <= size + 1,
                  "finding \(finding.code) at \(line):\(column) outside \(lines) lines / \(size) bytes")
        }
    }
    if let value { checkPositions(value, after: -1, size: size, lines: lines) }
    check(value != nil || failed || findings.isEmpty == false, "no value, not failed, and no finding")

    // The comparison with Foundation needs input that both read as the same text: Foundation guesses
    // UTF-16/32 from NUL bytes and skips a byte-order mark, so only plain UTF-8 without either.
    guard String(validating: bytes, as: UTF8.self) != nil, !bytes.contains(0),
          !bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return 0 }
    let foundation: Any?
    var foundationError = ""
    do {
        foundation = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    } catch {
        foundation = nil
        foundationError = "\((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error)"
    }
    let deep = findings.contains { $0.code == "nesting-too-deep" }
    if let foundation {
        check(!failed, "Foundation reads the input, the reader failed: \(findings.map(\.message))")
        if let value, !deep { checkSame(value, foundation, "") }
    } else if !failed, findings.isEmpty {
        // Foundation refuses numbers outside Double's range; the reader keeps a number's text and
        // never needs its value, so that refusal is not a disagreement.
        check(foundationError.contains("not representable"),
              "the reader finds nothing wrong, Foundation refuses: \(foundationError)")
    }
    return 0
}

/// Positions lie inside the input, and each value starts after the one read before it.
@discardableResult
private func checkPositions(_ value: JSONValue, after previous: Int, size: Int, lines: Int) -> Int {
    let p = value.position
    check(p.offset > previous && p.offset < size, "value at offset \(p.offset) after \(previous), size \(size)")
    check(p.line >= 1 && p.line <= lines && p.column >= 1 && p.column <= p.offset + 1,
          "value at \(p.line):\(p.column), offset \(p.offset)")
    var last = p.offset
    switch value.kind {
    case .object(let members):
        for member in members {
            check(member.keyPosition.offset > last, "key at \(member.keyPosition.offset) after \(last)")
            last = checkPositions(member.value, after: member.keyPosition.offset, size: size, lines: lines)
        }
    case .array(let elements):
        for element in elements { last = checkPositions(element, after: last, size: size, lines: lines) }
    default:
        break
    }
    return last
}

/// The reader's value equals Foundation's. Objects compare by key, the last of duplicates winning
/// on both sides; numbers only by kind (the reader keeps their text).
private func checkSame(_ ours: JSONValue, _ theirs: Any, _ pointer: String) {
    let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))
    switch ours.kind {
    case .object(let members):
        guard let dictionary = theirs as? [String: Any] else { return mismatch(pointer, ours, theirs) }
        check(Set(members.map(\.key)) == Set(dictionary.keys), "keys differ at \(pointer)")
        for (key, value) in dictionary {
            guard let member = ours.member(key) else { return mismatch(pointer + "/" + key, ours, theirs) }
            checkSame(member.value, value, pointer + "/" + key)
        }
    case .array(let elements):
        guard let array = theirs as? [Any], array.count == elements.count else { return mismatch(pointer, ours, theirs) }
        for (index, element) in elements.enumerated() { checkSame(element, array[index], "\(pointer)/\(index)") }
    case .string(let text):
        check((theirs as? String) == text, "string at \(pointer): \(text.debugDescription) vs \(theirs)")
    case .number:
        guard let number = theirs as? NSNumber, ObjectIdentifier(type(of: number)) != booleanClass else {
            return mismatch(pointer, ours, theirs)
        }
    case .bool(let flag):
        guard let number = theirs as? NSNumber, ObjectIdentifier(type(of: number)) == booleanClass,
              number.boolValue == flag else { return mismatch(pointer, ours, theirs) }
    case .null:
        check(theirs is NSNull, "null at \(pointer) vs \(theirs)")
    case .unreadable:
        mismatch(pointer, ours, theirs)
    }
}

private func mismatch(_ pointer: String, _ ours: JSONValue, _ theirs: Any) {
    check(false, "at \(pointer) the reader has \(ours.typeDescription), Foundation \(theirs)")
}

/// A failed check is a crash, which is what libFuzzer records as a finding (with the input).
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}
