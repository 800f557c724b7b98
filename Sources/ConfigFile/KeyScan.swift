// libyaml itself (Yams' C target): Yams composes a whole tree and exposes no event stream, and the
// check must run before anything is composed. CYaml is not a product of Yams; SwiftPM lets a
// target import the C targets of the packages it depends on (scripts/check-imports lists it as a module
// the Yams product carries), and scripts/fuzz passes its include
// path, so both builds see it.
import CYaml

/// A pass over libyaml's events before Yams composes the tree: every mapping key must be a plain
/// scalar. The schema's keys are words (`host`, `app_ids`), and a key that is an alias or a list is
/// where composing goes wrong: Yams checks a mapping for duplicate keys by hashing each key whole,
/// so `? *l7` — an alias to eight levels of ten-fold lists — is hashed through 10^8 values before
/// the reader's value budget can stop it (a 401-byte file stalled `apply` for 16 s; issue #30).
/// The scan keeps only a stack of the open containers: time linear in the file, nothing expanded.
struct KeyScan {
    /// The first key that is not a scalar, or nil.
    var problem: ConfigProblem?
    /// Events read before the scan ended, so a test can see that it stopped early and read each
    /// event once (libyaml's events are at most a few per byte of input).
    var events = 0

    /// Scans `bytes` (UTF-8 without NUL: checked before). A YAML syntax error ends the scan with no
    /// problem: composing reports it, with Yams' words, as it always has.
    static func scan(_ bytes: [UInt8]) -> KeyScan {
        var result = KeyScan()
        bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            result.read(&parser)
        }
        return result
    }

    /// An open container, and for a mapping whether its next node is a key.
    private enum Open {
        case sequence
        case mapping(nextIsKey: Bool)
    }

    private mutating func read(_ parser: inout yaml_parser_t) {
        var open: [Open] = []
        var event = yaml_event_t()
        while yaml_parser_parse(&parser, &event) == 1 {
            defer { yaml_event_delete(&event) }
            events += 1
            let type = event.type
            if type == YAML_STREAM_END_EVENT { return }
            let startsNode = type == YAML_ALIAS_EVENT || type == YAML_SCALAR_EVENT
                || type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT
            if startsNode, case .mapping(let nextIsKey)? = open.last {
                if nextIsKey, type != YAML_SCALAR_EVENT {
                    // libyaml counts lines from 0.
                    let line = Int(event.start_mark.line) + 1
                    problem = ConfigProblem(line: line, type == YAML_ALIAS_EVENT
                        ? "a key must be a plain word, not an alias (*name); write the key itself"
                        : "a key must be a plain word, not a list or mapping")
                    return
                }
                open[open.count - 1] = .mapping(nextIsKey: !nextIsKey)
            }
            if type == YAML_SEQUENCE_START_EVENT { open.append(.sequence) }
            if type == YAML_MAPPING_START_EVENT { open.append(.mapping(nextIsKey: true)) }
            if type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT { _ = open.popLast() }
        }
    }
}
