/// Matcher for patterns with `$(…)` alternatives: a nondeterministic automaton simulated over all
/// states at once, so the cost is input length × live states, never exponential.
///
/// Each alternative list becomes a trie (values sharing a prefix share states), which keeps the live
/// states few even for `$(region)` with its hundreds of codes or a user list of thousands of values.
/// Consuming states are literals, `?` and `*` (a star consumes any unit and stays; it can also be
/// skipped). After a state consumes, the simulation moves to a precomputed closure: the consuming
/// states reachable without input, plus whether the end of the pattern is reachable.
struct GlobAutomaton: Sendable {
    private enum Kind: UInt8 { case unit, anyOne, star }

    private var kinds: [Kind] = []
    private var units: [UInt32] = []
    /// Closure to enter after state i consumes a unit.
    private var follow: [Int32] = []
    /// Closures in compressed rows: closure c is closureStates[closureStart[c]..<closureStart[c+1]].
    private var closureStart: [Int32] = [0]
    private var closureStates: [Int32] = []
    private var closureAccepts: [Bool] = []
    private var startClosure: Int32 = 0

    init(_ tokens: [PatternToken]) {
        var graph = Graph()
        var next = graph.add(.accept)
        for token in tokens.reversed() {
            switch token {
            case .unit(let unit): next = graph.add(.consume(.unit, unit, next))
            case .anyOne: next = graph.add(.consume(.anyOne, 0, next))
            case .star: next = graph.add(.consume(.star, 0, next))
            case .alternatives(_, let values): next = graph.addTrie(values, continuation: next)
            case .undefined: next = graph.add(.split([]))
            }
        }
        self.init(graph: graph, start: next)
    }

    func matches<Input: MatchUnits>(_ input: Input, folding: Bool) -> Bool {
        var current = Array(closureStates[Int(closureStart[Int(startClosure)])..<Int(closureStart[Int(startClosure) + 1])])
        var accepting = closureAccepts[Int(startClosure)]
        var next: [Int32] = []
        next.reserveCapacity(current.count)
        // Duplicates are found by a linear scan while the live set is small (the usual case), and by
        // marks only when it grows: allocating marks for every state on every match dominated the cost
        // of automata with big variable lists.
        var marks: [UInt32] = []
        var generation: UInt32 = 0
        for element in input {
            let raw = UInt32(truncatingIfNeeded: element)
            let unit = folding ? CaseFolding.fold(raw) : raw
            generation += 1
            accepting = false
            next.removeAll(keepingCapacity: true)
            for state in current {
                let index = Int(state)
                switch kinds[index] {
                case .unit: if units[index] != unit { continue }
                case .anyOne, .star: break
                }
                let closure = Int(follow[index])
                if closureAccepts[closure] { accepting = true }
                for target in closureStates[Int(closureStart[closure])..<Int(closureStart[closure + 1])] {
                    if marks.isEmpty {
                        if next.count < 24 {
                            if !next.contains(target) { next.append(target) }
                            continue
                        }
                        marks = [UInt32](repeating: 0, count: kinds.count)
                        for state in next { marks[Int(state)] = generation }
                    }
                    if marks[Int(target)] != generation {
                        marks[Int(target)] = generation
                        next.append(target)
                    }
                }
            }
            if next.isEmpty && !accepting { return false }
            swap(&current, &next)
        }
        return accepting
    }

    // MARK: Construction

    private enum Node {
        case consume(Kind, UInt32, Int)
        case split([Int])
        case accept
    }

    private struct Graph {
        var nodes: [Node] = []

        mutating func add(_ node: Node) -> Int {
            nodes.append(node)
            return nodes.count - 1
        }

        /// Emits the trie's nodes ending in `continuation`; returns its entry node. Iterative, so a very
        /// long value cannot exhaust the stack.
        mutating func addTrie(_ trie: ValueTrie, continuation: Int) -> Int {
            // Trie nodes were created parent-first, so reverse order sees every child before its parent.
            var entry = [Int](repeating: -1, count: trie.children.count)
            for trieNode in stride(from: trie.children.count - 1, through: 0, by: -1) {
                var targets: [Int] = []
                targets.reserveCapacity(trie.children[trieNode].count + 1)
                if trie.terminal[trieNode] { targets.append(continuation) }
                for (unit, child) in trie.children[trieNode] {
                    let kind: Kind = unit == PatternUnit.star ? .star : unit == PatternUnit.anyOne ? .anyOne : .unit
                    targets.append(add(.consume(kind, unit, entry[child])))
                }
                entry[trieNode] = add(.split(targets))
            }
            return entry[0]
        }
    }

    private init(graph: Graph, start: Int) {
        // Number the consuming nodes densely: only they are simulated.
        var stateOf = [Int32](repeating: -1, count: graph.nodes.count)
        for (index, node) in graph.nodes.enumerated() {
            if case .consume(let kind, let unit, _) = node {
                stateOf[index] = Int32(kinds.count)
                kinds.append(kind)
                units.append(unit)
            }
        }
        var closureOfNode = [Int32](repeating: -1, count: graph.nodes.count)
        // One visited-mark array for all closures, told apart by generation: a set per closure cost an
        // allocation per node, which made large variable lists slow to compile.
        var seen = [Int32](repeating: -1, count: graph.nodes.count)
        var stack: [Int] = []
        func closure(of node: Int) -> Int32 {
            if closureOfNode[node] >= 0 { return closureOfNode[node] }
            let generation = Int32(closureAccepts.count)
            stack.append(node)
            var states: [Int32] = []
            var accepts = false
            while let current = stack.popLast() {
                guard seen[current] != generation else { continue }
                seen[current] = generation
                switch graph.nodes[current] {
                case .accept: accepts = true
                case .split(let targets): stack.append(contentsOf: targets.reversed())
                case .consume(let kind, _, let next):
                    states.append(stateOf[current])
                    // A star may also match nothing.
                    if kind == .star { stack.append(next) }
                }
            }
            let id = Int32(closureAccepts.count)
            closureAccepts.append(accepts)
            closureStates.append(contentsOf: states)
            closureStart.append(Int32(closureStates.count))
            closureOfNode[node] = id
            return id
        }
        follow = [Int32](repeating: 0, count: kinds.count)
        for (index, node) in graph.nodes.enumerated() {
            if case .consume(let kind, _, let next) = node {
                // A star that consumed stays where it is, so its follow closure is its own.
                follow[Int(stateOf[index])] = kind == .star ? closure(of: index) : closure(of: next)
            }
        }
        startClosure = closure(of: start)
    }
}
