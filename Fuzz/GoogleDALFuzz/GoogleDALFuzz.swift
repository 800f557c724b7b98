// libFuzzer target for the reader of Google's Digital Asset Links API answers (statements:list,
// assetlinks:check), built by scripts/fuzz against the AssetLinks module. The API's answer is
// outside bytes: whatever comes back (a proxy's error page, a truncated body, a hostile endpoint set
// by --google-dal-base) must be an answer or an error value, never a trap. Beyond that: a parsed list
// rebuilds into a file our reader honours, and it compares equal with itself by behaviour.

import AssetLinks

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGoogleDAL(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .success(let list) = GoogleResponseParser.statementList(bytes) {
        if let age = list.maxAgeSeconds, !(age.isFinite && age >= 0) { fatalError("maxAge \(age) accepted") }
        let file = list.file
        if !AssetLinksDiff.diff(old: file, new: file).isBehaviourallyEqual { fatalError("Google's copy differs from itself") }
        if file.statements.count > list.statements.count { fatalError("more statements rebuilt than Google listed") }
    }
    if case .success(let check) = GoogleResponseParser.check(bytes, relation: "delegate_permission/common.handle_all_urls",
                                                             packageName: "a.b", fingerprint: "F") {
        if check.packageName != "a.b" { fatalError("the question was not kept") }
    }
    return 0
}
