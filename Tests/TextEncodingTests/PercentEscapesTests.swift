import Testing
import TextEncoding

@Suite struct PercentEscapesTests {
    private func decode(_ s: String, plus: Bool = false) -> String {
        String(decoding: PercentEscapes.decodedBytes(Array(s.utf8), plusAsSpace: plus), as: UTF8.self)
    }

    @Test func validEscapesOfEitherCaseBecomeTheirByte() {
        #expect(decode("a%20b%2fc%2Fd") == "a b/c/d")
        #expect(decode("%C3%BC") == "ü")
        #expect(PercentEscapes.decodedBytes(Array("%00%ff".utf8)) == [0x00, 0xFF])
    }

    @Test func invalidEscapesStayLiteral() {
        #expect(decode("%") == "%")
        #expect(decode("%4") == "%4")
        #expect(decode("%zz%4g100%") == "%zz%4g100%")
        #expect(decode("%%41") == "%A")
    }

    @Test func plusIsASpaceOnlyWhenAsked() {
        #expect(decode("a+b%2B", plus: true) == "a b+")
        #expect(decode("a+b", plus: false) == "a+b")
    }

    @Test func worksOnSlicesWithOffsetIndices() {
        let bytes = Array("xx%41yy".utf8)
        #expect(PercentEscapes.decodedBytes(bytes[2...4]) == [0x41])
        #expect(PercentEscapes.hexValue(UInt8(ascii: "G")) == nil)
    }
}
