import ConfigFile
import Testing

@Suite struct ConfigTextTests {
    /// The names `apply --server` sends the values of: each `${NAME}` once, in order; a `$${` literal,
    /// a malformed reference and a lone `$` name nothing, so no other variable leaves the machine.
    @Test func referencedNamesOfAWholeFile() {
        let file = """
            channels:
              - url: ${SLACK_URL}
                secret: "${HOOK_SECRET}"
              - url: https://example.com/${SLACK_URL}/again
                template: "$${NOT_A_REFERENCE} costs $5"
                bad: ${1X} ${ALSO
            """
        #expect(ConfigText.referencedNames(in: file) == ["SLACK_URL", "HOOK_SECRET"])
        #expect(ConfigText.referencedNames(in: "no references, $ and $$ only") == [])
    }

    /// For one setting, the names are the ones the template resolves with.
    @Test func referencedNamesAgreeWithATemplate() throws {
        let template = "https://${HOST_NAME}/hooks/${TOKEN}?literal=$${X}"
        let resolved = try ConfigText(resolving: template, environment: ["HOST_NAME": "h.example", "TOKEN": "t"])
        #expect(ConfigText.referencedNames(in: template) == resolved.references)
        #expect(resolved.value == "https://h.example/hooks/t?literal=${X}")
    }
}
