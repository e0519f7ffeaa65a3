extension StringProtocol {
    /// Whether `other` occurs in this text, compared `Character` by `Character` (canonically
    /// equivalent characters match, as with `==`); the empty text occurs in every text.
    ///
    /// The same answer as `contains(_:)` on strings, which lives in `_StringProcessing`: flickd's
    /// modules are built without that module (it costs about 200 KiB resident for this one
    /// search; docs/PERFORMANCE.md, "Resident memory against the floor").
    public func containsText(_ other: some StringProtocol) -> Bool {
        other.isEmpty || firstRange(ofText: other) != nil
    }

    /// Where `other` first occurs in this text, compared `Character` by `Character`; nil when
    /// it does not (or is empty). `firstRange(of:)` lives in `_StringProcessing`.
    public func firstRange(ofText other: some StringProtocol) -> Range<Index>? {
        guard !other.isEmpty else { return nil }
        var start = startIndex
        while start != endIndex {
            if let end = end(ofText: other, at: start) { return start..<end }
            formIndex(after: &start)
        }
        return nil
    }

    /// Where `other` last occurs in this text (`firstRange(ofText:)`, from the end); nil when it
    /// does not (or is empty). `ranges(of:).last` lives in `_StringProcessing`.
    public func lastRange(ofText other: some StringProtocol) -> Range<Index>? {
        guard !other.isEmpty else { return nil }
        var start = endIndex
        while start != startIndex {
            formIndex(before: &start)
            if let end = end(ofText: other, at: start) { return start..<end }
        }
        return nil
    }

    /// The end of `other` when this text holds it from `start`, Character by Character.
    private func end(ofText other: some StringProtocol, at start: Index) -> Index? {
        var index = start
        for character in other {
            guard index != endIndex, self[index] == character else { return nil }
            formIndex(after: &index)
        }
        return index
    }
}
