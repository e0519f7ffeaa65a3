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
            case _ where isControl(scalar): result += unicodeEscape(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` with only its control characters escaped, as `\u001B`: for a message that
    /// quotes text of its own and must stay one line with nothing for a terminal to act on.
    public static func controlsEscaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) { result += unicodeEscape(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// `\uXXXX` for a control character (all lie under U+0100).
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// A C0 or C1 control character, or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
