import Testing
@testable import FlickTools

/// The YAML tree `libinput record` files are read into: what each collection holds, in file
/// order, with the line each node starts on.
@Suite struct YAMLDocumentTests {
    /// A node as nested plain values with lines, so that one `==` compares a whole tree.
    private indirect enum Shape: Equatable, CustomStringConvertible {
        case scalar(String, line: Int)
        case sequence([Shape], line: Int)
        case mapping([String], [Shape], line: Int)
        case null(line: Int)

        init(_ node: YAMLNode) {
            switch node.value {
            case .scalar(let text): self = .scalar(text, line: node.line)
            case .sequence(let items): self = .sequence(items.map(Shape.init), line: node.line)
            case .mapping(let entries): self = .mapping(entries.map(\.key), entries.map { Shape($0.value) }, line: node.line)
            case .null: self = .null(line: node.line)
            }
        }

        var description: String {
            switch self {
            case .scalar(let text, let line): return "\"\(text)\"@\(line)"
            case .sequence(let items, let line): return "[\(items.map(\.description).joined(separator: ", "))]@\(line)"
            case .mapping(let keys, let values, let line):
                return "{\(zip(keys, values).map { "\($0): \($1)" }.joined(separator: ", "))}@\(line)"
            case .null(let line): return "~@\(line)"
            }
        }
    }

    @Test func listsMappingsKeysAndEmptyValuesKeepTheirOrderAndLines() throws {
        let text = """
            version: 1
            empty:
            devices:
            - node: a
              codes: {1: [330, 325], 3: []}
              quirks:
              -
              - Attr=1
            - node: b
            ?
            : nameless
            version: 2

            """
        let root = try #require(try YAMLDocument.parse(text))
        let expected = Shape.mapping(
            ["version", "empty", "devices", "", "version"],
            [.scalar("1", line: 1), .null(line: 2),
             .sequence([
                 .mapping(["node", "codes", "quirks"],
                          [.scalar("a", line: 4),
                           .mapping(["1", "3"], [.sequence([.scalar("330", line: 5), .scalar("325", line: 5)], line: 5),
                                                 .sequence([], line: 5)], line: 5),
                           .sequence([.null(line: 7), .scalar("Attr=1", line: 8)], line: 7)], line: 4),
                 .mapping(["node"], [.scalar("b", line: 9)], line: 9),
             ], line: 4),
             .scalar("nameless", line: 11), .scalar("2", line: 12)],
            line: 1)
        #expect(Shape(root) == expected, "expected \(expected)\nactual   \(Shape(root))")
        #expect(root["version"].map(Shape.init) == .scalar("1", line: 1), "the first of a repeated key")
    }

    /// A long list, as a recording's events are: every item, in file order, each on its line.
    @Test func aLongListKeepsEveryItemInOrder() throws {
        let count = 5000
        var text = "events:\n"
        for index in 0..<count { text += "- [\(index), \(index * 7)]\n" }
        let root = try #require(try YAMLDocument.parse(text))
        let events = try #require(root["events"])
        guard case .sequence(let items) = events.value else {
            Issue.record("events is \(events.kindName)")
            return
        }
        #expect(items.count == count)
        let expected = (0..<count).map { Shape.sequence([.scalar("\($0)", line: $0 + 2), .scalar("\($0 * 7)", line: $0 + 2)], line: $0 + 2) }
        let actual = items.map(Shape.init)
        let first = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(first == nil, "item \(first?.offset ?? 0): expected \(first?.element.0.description ?? ""), actual \(first?.element.1.description ?? "")")
    }
}
