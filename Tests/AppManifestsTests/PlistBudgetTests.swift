@testable import AppManifests
import Foundation
import Testing

/// Property lists that cost more to read than their size says (issue #30). Binary ones whose
/// objects are shared: the reader walks the object graph once and refuses what would expand past
/// its budgets before Foundation reads (and copies) anything; the walk's own counters show it
/// stayed linear in the file. XML and the old ASCII format: nesting past the same depth.
@Suite struct PlistBudgetTests {
    enum Object {
        case array([Int])
        case dictionary([(key: Int, value: Int)])
        case string(String)
    }

    /// A binary plist written byte by byte from `objects` (references are indices into it): 2-byte
    /// references and 4-byte offsets, lengths of 15 or more as a following 4-byte integer.
    static func binaryPlist(_ objects: [Object], top: Int = 0) -> [UInt8] {
        func bigEndian(_ n: Int, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: n >> ($0 * 8)) } }
        func marker(_ kind: UInt8, _ count: Int) -> [UInt8] { count < 15 ? [kind | UInt8(count)] : [kind | 0x0F, 0x12] + bigEndian(count, 4) }
        var file = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(file.count)
            switch object {
            case .array(let references):
                file += marker(0xA0, references.count) + references.flatMap { bigEndian($0, 2) }
            case .dictionary(let pairs):
                file += marker(0xD0, pairs.count) + pairs.flatMap { bigEndian($0.key, 2) } + pairs.flatMap { bigEndian($0.value, 2) }
            case .string(let text):
                file += marker(0x50, text.utf8.count) + Array(text.utf8)
            }
        }
        let table = file.count
        for offset in offsets { file += bigEndian(offset, 4) }
        file += [0, 0, 0, 0, 0, 0, 4, 2] + bigEndian(objects.count, 8) + bigEndian(top, 8) + bigEndian(table, 8)
        return file
    }

    /// `{associated-domains: chain}` where each of `depth` arrays refers twice to the next and the
    /// last to one string: 2^depth strings once read, in a file of about 5 × depth bytes.
    static func doublingChain(depth: Int) -> [UInt8] {
        var objects: [Object] = [.dictionary([(1, 2)]), .string("com.apple.developer.associated-domains")]
        for level in 0..<depth { objects.append(.array([3 + level, 3 + level])) }
        objects.append(.string("applinks:example.com"))
        return binaryPlist(objects)
    }

    static func problem(_ bytes: [UInt8]) -> (BinaryPlistObjects.Problem?, BinaryPlistObjects.Cost) {
        var cost = BinaryPlistObjects.Cost()
        do throws(BinaryPlistObjects.Problem) {
            _ = try BinaryPlistObjects.check(bytes[...], cost: &cost)
            return (nil, cost)
        } catch {
            return (error, cost)
        }
    }

    static func refusal(_ bytes: [UInt8]) -> [String] {
        do throws(ManifestRefusal) {
            _ = try EntitlementsReader.read(bytes)
            return []
        } catch {
            return error.problems.map(\.reason)
        }
    }

    /// The review's 456-byte file (a depth-24 chain: 1.6 GB and 10.6 s in Foundation), here with
    /// the 455-byte fuzz seed's shape: refused after measuring each object once.
    @Test func aDoublingChainIsRefusedAfterOneLinearWalk() throws {
        let bytes = Self.doublingChain(depth: 24)
        let (problem, cost) = Self.problem(bytes)
        #expect(problem == .tooManyValues(limit: 10_000))
        // 2 + 24 + 1 objects and 2 + 48 references in the file; the walk stops where the running
        // count passes the budget, never revisiting a measured object.
        #expect(cost.objectsMeasured <= 27, "\(cost)")
        #expect(cost.referencesFollowed <= 50, "\(cost)")
        #expect(Self.refusal(bytes) == [
            "The binary property list expands to more than 10000 values once read (its containers refer to the same objects again and again, and each reference is read as a copy); entitlements hold a few dozen. Export the entitlements again with codesign -d --entitlements, or pass the .entitlements file Xcode writes.",
        ])
    }

    /// The budget is on what Foundation creates: a chain that expands to 8,191 values (12 levels,
    /// and the dictionary and its key) is read; one more level, 16,383, is not.
    @Test func theValueBudgetCountsSharedReferencesEachTime() throws {
        let (fits, _) = Self.problem(Self.doublingChain(depth: 11))
        #expect(fits == nil)
        var cost = BinaryPlistObjects.Cost()
        let shape = try BinaryPlistObjects.check(Self.doublingChain(depth: 12)[...], cost: &cost)
        #expect(shape == .init(values: 2 + 8191, bytes: 38 + 4096 * 20, depth: 14))
        #expect(cost == .init(objectsMeasured: 2 + 12 + 1, referencesFollowed: 2 + 24))
        #expect(Self.problem(Self.doublingChain(depth: 13)).0 == .tooManyValues(limit: 10_000))
        // Read, the depth-12 chain is refused for its content, not its size: Foundation read it.
        #expect(Self.refusal(Self.doublingChain(depth: 12)).first?.contains("is not a string") == true)
    }

    /// Nesting: 32 levels are read, 33 are not — also when the deep part is shared and first met
    /// near the top, so its depth is known only from the memo when the deeper path reaches it.
    @Test func nestingDeeperThanTheBudgetIsRefused() {
        func nested(_ arrays: Int) -> [UInt8] {
            Self.binaryPlist((0..<arrays).map { .array([$0 + 1]) } + [.string("applinks:example.com")])
        }
        #expect(Self.problem(nested(31)).0 == nil, "31 arrays and a string: 32 deep")
        #expect(Self.problem(nested(32)).0 == .tooDeep(limit: 32))
        // Top: [shared, path]; path is 20 arrays ending in shared; shared is 15 arrays and a string.
        var objects: [Object] = [.array([1, 17])]
        for level in 0..<15 { objects.append(.array([2 + level])) }          // 1...15
        objects.append(.string("applinks:example.com"))                       // 16
        for level in 0..<20 { objects.append(.array([level == 19 ? 1 : 18 + level])) } // 17...36
        #expect(Self.problem(Self.binaryPlist(objects)).0 == .tooDeep(limit: 32))
        #expect(Self.refusal(nested(40)).first?.hasPrefix("The binary property list nests containers more than 32 deep") == true)
    }

    @Test func aContainerInsideItselfIsRefusedAsMalformed() {
        let cycle = Self.binaryPlist([.array([1]), .array([0])])
        #expect(Self.problem(cycle).0 == .malformed("object 0 contains itself"))
        #expect(Self.refusal(cycle).first?.hasPrefix("The file starts like a binary property list, but object 0 contains itself.") == true)
    }

    @Test func referencesAndLengthsOutsideTheFileAreMalformed() {
        #expect(Self.problem(Self.binaryPlist([.array([5])])).0 == .malformed("object 0 refers to an object the file does not have"))
        #expect(Self.problem(Self.binaryPlist([.string("a")], top: 1)).0 == .malformed("its top object is not one of its objects"))
        var long = Self.binaryPlist([.string(String(repeating: "a", count: 20))])
        long[10...13] = [0, 0, 1, 0]                                          // claims 256 bytes
        #expect(Self.problem(long).0 == .malformed("object 0 runs into the offset table"))
    }

    /// A large string shared by reference is copied once per reference: the bytes are budgeted too.
    @Test func sharedStringsCountTheirBytesEachTime() {
        let big = String(repeating: "a", count: 400_000)
        let twice = Self.binaryPlist([.array([1, 1]), .string(big)])
        #expect(Self.problem(twice).0 == nil)
        let thrice = Self.binaryPlist([.array([1, 1, 1]), .string(big)])
        #expect(Self.problem(thrice).0 == .tooManyBytes(limit: 1 << 20))
        #expect(Self.refusal(thrice).first?.hasPrefix("The binary property list's strings and data come to more than 1 MB once read") == true)
    }

    @Test func aFileLargerThanTheReadersLimitIsRefusedUnread() {
        let bytes = Array("[\"applinks:example.com\"]".utf8) + Array(repeating: 0x20, count: 1 << 20)
        #expect(Self.refusal(bytes) == ["The file has \(bytes.count) bytes; entitlements are a few kilobytes, and at most 1 MB is read."])
    }

    /// What Foundation and Xcode write still reads, with its shape measured.
    @Test func aBuiltAppsEntitlementsFitEasily() throws {
        let plist: [String: Any] = [
            "application-identifier": "ABCDE12345.com.example.shop",
            "com.apple.developer.team-identifier": "ABCDE12345",
            "com.apple.developer.associated-domains": ["applinks:shop.example.com", "webcredentials:shop.example.com"],
            "keychain-access-groups": ["ABCDE12345.*"],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let shape = try BinaryPlistObjects.check(Array(data)[...])
        #expect(shape.values == 1 + 4 + 4 + 3 && shape.depth == 3, "the dictionary, its keys, its values, the arrays' strings")
    }

    /// XML and ASCII property lists are held to the binary format's depth, refused before
    /// Foundation reads them (it stops itself only a few hundred levels down), with the line.
    @Test func deepXMLAndASCIINestingIsRefusedWithItsLine() {
        let xml = "<plist version=\"1.0\">\n" + String(repeating: "<array>\n", count: 40) + String(repeating: "</array>", count: 40) + "\n</plist>\n"
        #expect(Self.refusal(Array(xml.utf8)) == ["The property list nests elements more than 33 deep; entitlements nest four (plist, dict, array, string)."])
        #expect(Self.problems(Array(xml.utf8)).first?.line == 34, "the 33rd <array> is on line 34")
        let ascii = "/* ((( */ (\"((\", '{{',\n" + String(repeating: "(", count: 32) + ")"
        #expect(EntitlementsReader.asciiNestingProblem(Array(ascii.utf8)[...])?.line == 2)
        #expect(EntitlementsReader.asciiNestingProblem(Array(("(\"a)\", " + String(repeating: "(", count: 31)).utf8)[...]) == nil,
                "31 more inside the first: 32, and the brackets in the string and comment are text")
        #expect(Self.refusal(Array((String(repeating: "(", count: 100_000)).utf8))
                == ["The property list nests ( or { more than 32 deep; an array of associated domains nests one."])
        // What Xcode writes still reads.
        #expect(Self.refusal(Array(EntitlementsReaderTests.xcodeFile(["applinks:example.com"]).utf8)) == [])
        #expect(Self.refusal(Array("( \"applinks:example.com\" )".utf8)) == [])
    }

    static func problems(_ bytes: [UInt8]) -> [ManifestProblem] {
        do throws(ManifestRefusal) {
            _ = try EntitlementsReader.read(bytes)
            return []
        } catch {
            return error.problems
        }
    }
}
