// Cutting recording texts mid-line, for the truncation tests of both recording formats.

/// The 1-based number of the line holding byte `offset` of `text`.
func lineNumber(ofByte offset: Int, in text: String) -> Int {
    Array(text.utf8)[..<offset].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
}

/// Byte offsets in `text` that fall inside a line, after at least one non-blank byte of it:
/// cutting there leaves a last line that has visibly lost its end.
func midLineCuts(in text: String, count: Int) -> [Int] {
    let bytes = Array(text.utf8)
    var cuts: [Int] = []
    for step in 1...count {
        var cut = bytes.count * step / (count + 1)
        while cut < bytes.count {
            let lineStart = bytes[..<cut].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            let partial = bytes[lineStart..<cut]
            if bytes[cut] != UInt8(ascii: "\n"), partial.contains(where: { $0 != 0x20 && $0 != 0x09 }) { break }
            cut += 1
        }
        if cut < bytes.count { cuts.append(cut) }
    }
    return cuts
}
