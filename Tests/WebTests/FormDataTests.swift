import Testing
@testable import Web

@Suite struct FormDataTests {
    @Test func decodesPlusPercentRepeatsAndCRLF() throws {
        let f = try FormData.decode(Array("host=b%C3%BCcher.example&app=A+B&app=C&note=a%0D%0Ab&empty=&flag".utf8))
        #expect(f["host"] == "bücher.example")
        #expect(f.all("app") == ["A B", "C"])
        #expect(f["note"] == "a\nb")
        #expect(f["empty"] == "")
        #expect(f["flag"] == "")
        #expect(f["missing"] == nil)
    }

    @Test func refusesOversizeTooManyFieldsAndBadEscapes() {
        let limits = FormData.Limits(maxBytes: 10, maxFields: 2)
        #expect(throws: FormData.DecodeError.tooLarge(limit: 10)) { try FormData.decode(Array("a=12345678901".utf8), limits: limits) }
        #expect(throws: FormData.DecodeError.tooManyFields(limit: 2)) { try FormData.decode(Array("a&b&c".utf8), limits: limits) }
        #expect(throws: FormData.DecodeError.malformed(field: "x")) { try FormData.decode(Array("x=%4".utf8)) }
        #expect(throws: FormData.DecodeError.malformed(field: "x")) { try FormData.decode(Array("x=%FF".utf8)) }
    }

    @Test func encodeRoundTrips() throws {
        let f = FormData(fields: [("host", "a b&c=d/é"), ("csrf", "x")])
        #expect(try FormData.decode(Array(f.encoded().utf8)) == f)
    }
}
