/// Text in double quotes, escaped as a TOML basic string and a JSON string both write it:
/// `"a\nb"`, `"say \"hi\""`, `"\u001B[31m"`. A message or a JSON line stays one line,
/// and a terminal is given no control character to act on.
public enum QuotedText {
    /// `text` in double quotes, escaped.
    public static func quoted(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }

    /// `text` escaped for between double quotes: `\\`, `\"`, `\n`, `\t`, `\r`, `\b`, `\f`, and
    /// `\uXXXX` for the other control characters.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A C0 or C1 control character, or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
