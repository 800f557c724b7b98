import Foundation
import Store
import Testing
import TextEncoding

@Suite struct SQLValueTests {
    @Test func timestampsDecodeWithAnyOffsetAndPrecision() throws {
        let cases: [(String, Double)] = [
            ("1970-01-01 00:00:00+00", 0),
            ("2026-11-22 03:01:48.123456+00", 1_795_316_508.123456),
            ("2026-11-22 08:31:48.5+05:30", 1_795_316_508.5),
            ("2026-11-21 19:01:48-08", 1_795_316_508),
            ("1969-12-31 23:59:59.999999+00", -0.000001),
            ("2000-02-29 12:00:00+00", 951_825_600),
        ]
        for (text, expected) in cases {
            let date = try Date.decode(sqlText: text, column: "t")
            #expect(abs(date.timeIntervalSince1970 - expected) < 0.000_001, "\(text)")
        }
        #expect(try Date.decode(sqlText: "infinity", column: "t") == .distantFuture)
        #expect(throws: DatabaseError.self) { try Date.decode(sqlText: "22/11/2026", column: "t") }
        #expect(throws: DatabaseError.self) { try Date.decode(sqlText: nil, column: "t") }
    }

    @Test func timestampsEncodeAsUTCWithMicroseconds() {
        #expect(Date(timeIntervalSince1970: 0).sqlValue == .text("1970-01-01 00:00:00.000000+00"))
        #expect(Date(timeIntervalSince1970: 1_795_316_508.123456).sqlValue == .text("2026-11-22 03:01:48.123456+00"))
        #expect(Date(timeIntervalSince1970: -0.5).sqlValue == .text("1969-12-31 23:59:59.500000+00"))
    }

    @Test func byteaHexDecodes() throws {
        #expect(try [UInt8].decode(sqlText: "\\x00ff10", column: "b") == [0x00, 0xFF, 0x10])
        #expect(try [UInt8].decode(sqlText: "\\x", column: "b") == [])
        #expect(throws: DatabaseError.self) { try [UInt8].decode(sqlText: "\\x0g", column: "b") }
    }

    @Test func nullDecodesOnlyAsOptional() throws {
        #expect(try Int?.decode(sqlText: nil, column: "n") == nil)
        #expect(try Int?.decode(sqlText: "7", column: "n") == 7)
        #expect(throws: DatabaseError.self) { try Int.decode(sqlText: nil, column: "n") }
    }

    @Test func integerArraysDecodeWithNullsAndRefuseOtherShapes() throws {
        func decode(_ text: String?) throws -> [Int?] { try SQLIntegerArray.decode(sqlText: text, column: "a").elements }
        #expect(try decode("{}") == [])
        #expect(try decode("{7,-2,NULL,32767}") == [7, -2, nil, 32767])
        #expect(try decode("{NULL}") == [nil])
        #expect(try decode("{9223372036854775807,-9223372036854775808,+3,0}") == [Int.max, Int.min, 3, 0])
        for bad in ["7,8", "{1,x}", "{{1,2},{3,4}}", "{1,,2}", "{", "}", "{,}", "{1,}", "{-}", "{9223372036854775808}", "{1 }", "{NULLS}", "{1,2"] {
            #expect(throws: DatabaseError.self, "\(bad)") { try decode(bad) }
        }
        #expect(throws: DatabaseError.self) { try decode(nil) }
    }

    @Test func arrayLiteralsQuoteEveryElement() {
        #expect(SQLArray([1, 2, 3]).sqlValue == .text("{1,2,3}"))
        #expect(SQLArray(["a", "b\"c", "d\\e", "f,g"]).sqlValue == .text("{\"a\",\"b\\\"c\",\"d\\\\e\",\"f,g\"}"))
    }

    @Test func connectionDescriptionHidesPasswords() {
        let configuration = ConnectionConfiguration(url: "postgresql://monitor:s3cret@db.internal:5432/aasa")
        #expect(!configuration.description.contains("s3cret"))
        #expect(configuration.description.contains("monitor:***@db.internal"))
    }

    @Test func sha256MatchesTheKnownVector() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// RFC 4231 test cases 2 (a short key) and 6 (a key longer than the block, hashed first): the one
    /// HMAC that CSRF tokens, flash cookies and webhook signatures all use.
    @Test func hmacSHA256MatchesRFC4231() {
        #expect(Hex.encode(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Hex.encode(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                                                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
