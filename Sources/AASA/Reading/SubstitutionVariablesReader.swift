import LocatedJSON

/// Reads `applinks.substitutionVariables` (aasa-spec.md §10): name → array of strings.
enum SubstitutionVariablesReader {
    static func read(_ value: JSONValue, _ path: JSONPath, _ context: inout ReadContext) -> [SubstitutionVariable] {
        guard case .object(let members) = value.kind else {
            context.report(.substWrongType, path, value.position,
                "\"substitutionVariables\" is \(value.typeDescription), but it must be an object mapping names to arrays of strings.",
                hint: "Write \"substitutionVariables\": {\"food\": [\"burrito\", \"taco\"]}.")
            return []
        }
        var variables: [SubstitutionVariable] = []
        for member in DocumentReader.latestMembers(members) {
            let name = member.key
            let varPath = path.appending(name)
            if name.isEmpty || name.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                context.report(.substNameInvalid, varPath, member.keyPosition,
                    name.isEmpty ? "A substitution variable has an empty name." :
                        "The variable name \"\(name)\" contains $, ( or ), which names may not contain.",
                    hint: "Use a plain name such as \"food\" and refer to it as $(food).")
            }
            if PatternCheck.builtinVariables.contains(name) {
                context.report(.substShadowsBuiltin, varPath, member.keyPosition,
                    "The variable \"\(name)\" has the name of a built-in variable; which one a device uses is not documented.",
                    hint: "Rename it, e.g. \"my\(name.prefix(1).uppercased())\(name.dropFirst())\".")
            }
            guard case .array(let elements) = member.value.kind else {
                context.report(.substWrongType, varPath, member.value.position,
                    "The variable \"\(name)\" is \(member.value.typeDescription), but it must be an array of strings.",
                    hint: member.value.stringValue.map { "Write \"\(name)\": [\"\($0)\"]." } ?? "Write \"\(name)\": [\"value\"].")
                // Known but unusable: references to it are not also reported as undefined.
                context.variables[name] = []
                continue
            }
            var values: [String] = []
            for (i, element) in elements.enumerated() {
                guard let text = element.stringValue else {
                    context.report(.substWrongType, varPath.appending(i), element.position,
                        "A value of the variable \"\(name)\" is \(element.typeDescription); values must be strings. It is ignored.",
                        hint: "Write the value in quotes.")
                    continue
                }
                if Array(text.utf8).containsSequence("$(") {
                    context.report(.substValueReferencesVariable, varPath.appending(i), element.position,
                        "The value \"\(text)\" of \"\(name)\" refers to a variable; variables cannot contain other variables (no recursion), so it is not expanded.",
                        hint: "Expand the referenced variable's values into this list.")
                }
                values.append(text)
            }
            if values.isEmpty {
                context.report(.substEmpty, varPath, member.value.position,
                    "The variable \"\(name)\" has no values, so every pattern that uses it matches nothing.",
                    hint: "Add values, or remove the variable and the rules that use it.")
            }
            context.variables[name] = values
            variables.append(SubstitutionVariable(name: name, values: values, location: context.location(varPath, member.keyPosition)))
        }
        return variables
    }
}
