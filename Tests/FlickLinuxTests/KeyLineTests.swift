import Testing
import FlickCore
@testable import FlickLinux

/// Where the parser says each key was written (`TOMLDocument.line(of:)`), as the messages use it.
@Suite struct KeyLineTests {
    @Test func sectionsOfAnArrayOfTablesAreNumbered() throws {
        let document = try TOMLDocument(text: """
            [coast]
            boost = true
            [[device]]
            name = "a"
            [device.coast]
            boost = false
            [[device]]
            name = "b"
            [device.touchpad]
            fingers = 3
            """)
        #expect(document.line(of: "coast.boost") == 2)
        #expect(document.line(of: "device") == 3)
        #expect(document.line(of: "device[1].name") == 4)
        #expect(document.line(of: "device[1].coast") == 5)
        #expect(document.line(of: "device[1].coast.boost") == 6)
        #expect(document.line(of: "device[2]") == 7)
        #expect(document.line(of: "device[2].name") == 8)
        #expect(document.line(of: "device[2].touchpad.fingers") == 10)
        #expect(document.line(of: "device[2].coast.boost") == 7, "not written: the section's header")
        #expect(document.line(of: "scroll.speed") == nil, "nothing of it written")
    }

    /// A quoted key with a dot is one key, named quoted: it keeps its line, and so does the
    /// key of a table with the same dotted name (toml++ lists `coast`'s keys first).
    @Test func aQuotedDottedKeyKeepsItsOwnLine() throws {
        let document = try TOMLDocument(text: "\"coast.boost\" = false\n[coast]\nboost = true\n\"a[1]\" = 2\n")
        #expect(document.line(of: "\"coast.boost\"") == 1)
        #expect(document.line(of: "coast.boost") == 3)
        #expect(document.line(of: "coast.\"a[1]\"") == 4)
        #expect(TOMLDocument.namePart("boost") == "boost")
        #expect(TOMLDocument.namePart("say \"hi\"") == "\"say \\\"hi\\\"\"")
    }

    @Test func anInlineArrayGivesEachKeyItsOwnLine() throws {
        let document = try TOMLDocument(text: "\ndevice = [{ name = 5 },\n  { name = 6 }]\n")
        #expect(document.line(of: "device[1].name") == 2)
        #expect(document.line(of: "device[2].name") == 3)
    }

    /// Text inside a multi-line string is not a header; a key keeps its line wherever its
    /// value goes on.
    @Test func keysAreFoundWhereTheParserFoundThem() throws {
        let document = try TOMLDocument(text: #"""
            name = """
            [coast]
            boost = 1
            """
            touchpad.fingers = [
              2,
              3]
            coast = { boost = false, tick_rate = 60 }
            """#)
        #expect(document.line(of: "name") == 1)
        #expect(document.line(of: "touchpad.fingers") == 5)
        #expect(document.line(of: "touchpad.fingers[2]") == 7)
        #expect(document.line(of: "coast") == 8)
        #expect(document.line(of: "coast.tick_rate") == 8)
        #expect(document.root["coast"]?.table?["boost"]?.bool == false)
    }
}
