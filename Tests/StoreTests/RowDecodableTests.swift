import Foundation
@testable import Store
import Testing

/// A row type states its columns once (its properties, in snake_case): each reads its own column,
/// a missing column or a stored word the code does not know is an error naming the column, never
/// a default.
@Suite struct RowDecodableTests {
    let columns = ["id", "name", "role", "created_at", "last_used_at"]

    @Test func eachPropertyReadsTheColumnOfItsNameInSnakeCase() throws {
        let token = try APITokenRecord(row: Row(columnNames: columns, values: ["7", "ci", "admin", "2026-11-24 19:00:00+00", nil]))
        #expect(token.id == 7)
        #expect(token.name == "ci")
        #expect(token.role == .admin)
        #expect(token.createdAt == Date(timeIntervalSince1970: 1_795_546_800))
        #expect(token.lastUsedAt == nil)
        let used = try APITokenRecord(row: Row(columnNames: columns.reversed(), values: ["2026-11-24 19:00:01+00", "2026-11-24 19:00:00+00", "viewer", "ci", "8"]))
        #expect(used.id == 8 && used.role == .readOnly && used.lastUsedAt == Date(timeIntervalSince1970: 1_795_546_801))
    }

    /// A result remembers where each property's column stands after its first row: its later rows
    /// read the same columns, and another result's own order is its own.
    @Test func theRowsOfOneResultShareWhereEachColumnStands() throws {
        let forward = ColumnLayout(names: columns, labels: columns), backward = ColumnLayout(names: columns.reversed(), labels: columns.reversed())
        for i in 0..<3 {
            let a = try APITokenRecord(row: Row(layout: forward, values: ["\(i)", "n\(i)", "admin", "2026-11-24 19:00:00+00", i == 1 ? nil : "2026-11-24 19:00:0\(i)+00"]))
            let b = try APITokenRecord(row: Row(layout: backward, values: [i == 2 ? nil : "2026-11-24 19:00:0\(i)+00", "2026-11-24 19:00:00+00", "viewer", "m\(i)", "\(10 + i)"]))
            #expect(a.id == Int64(i) && a.name == "n\(i)" && a.role == .admin)
            #expect(a.lastUsedAt == (i == 1 ? nil : Date(timeIntervalSince1970: 1_795_546_800 + Double(i))))
            #expect(b.id == Int64(10 + i) && b.name == "m\(i)" && b.role == .readOnly)
            #expect(b.lastUsedAt == (i == 2 ? nil : Date(timeIntervalSince1970: 1_795_546_800 + Double(i))))
        }
    }

    @Test func aMissingColumnIsAnErrorEvenForAnOptional() throws {
        let row = Row(columnNames: Array(columns.dropLast()), values: ["7", "ci", "admin", "2026-11-24 19:00:00+00"])
        let error = try #require(throws: DatabaseError.self) { try APITokenRecord(row: row) }
        #expect("\(error)".contains("last_used_at"), "\(error)")
    }

    @Test func anUnknownStoredWordNamesItsColumn() throws {
        let row = Row(layout: ColumnLayout(names: columns, labels: columns.map { "api_tokens.\($0)" }), values: ["7", "ci", "owner", "2026-11-24 19:00:00+00", nil])
        let error = try #require(throws: DatabaseError.self) { try APITokenRecord(row: row) }
        #expect("\(error)".contains("api_tokens.role"), "\(error)")
        #expect("\(error)".contains("owner"), "\(error)")
    }

    @Test func aNullInANonOptionalColumnIsAnError() throws {
        let row = Row(columnNames: columns, values: ["7", nil, "admin", "2026-11-24 19:00:00+00", nil])
        let error = try #require(throws: DatabaseError.self) { try APITokenRecord(row: row) }
        #expect("\(error)".contains("name"), "\(error)")
    }
}
