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
