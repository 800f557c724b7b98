import Testing
import TextEncoding

@Suite struct HexTests {
    @Test func encodesEveryByteAsTwoLowerCaseDigits() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x00, 0x0F, 0x10, 0xAB, 0xFF]) == "000f10abff")
        #expect(Hex.encode(Array(0...255)).count == 512)
    }

    @Test func decodesWhatItEncodes() {
        let all = [UInt8](0...255)
        #expect(Hex.decode(Substring(Hex.encode(all))) == all)
        #expect(Hex.decode("") == [])
    }

    @Test func refusesWhatItDoesNotWrite() {
        #expect(Hex.decode("abc") == nil)       // odd length
        #expect(Hex.decode("AB") == nil)        // upper case is not our spelling
        #expect(Hex.decode("0g") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode(" 0a") == nil)
    }
}
