extension StringProtocol {
    /// Whether `other` occurs in this text, compared `Character` by `Character` (canonically
    /// equivalent characters match, as with `==`); the empty text occurs in every text.
    ///
    /// The same answer as `contains(_:)` on strings, which lives in `_StringProcessing`: flickd's
    /// modules are built without that module (it costs about 200 KiB resident for this one
    /// search; docs/PERFORMANCE.md, "Resident memory against the floor").
    public func containsText(_ other: some StringProtocol) -> Bool {
        if other.isEmpty { return true }
        var start = startIndex
        while start != endIndex {
            if self[start...].starts(with: other) { return true }
            formIndex(after: &start)
        }
        return false
    }
}
