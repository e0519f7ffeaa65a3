import Testing
import FlickTools

/// `DecimalText.fixed`: exactly the digits asked for, whatever their count.
@Suite struct DecimalTextTests {
    @Test(arguments: [
        (2.5, 1, "2.5"),
        (-0.04, 1, "0.0"),
        (-0.05, 1, "-0.1"),
        (0.125, 2, "0.13"),
        (1234.5, 0, "1235"),
        (-7.0, 3, "-7.000"),
        (0.000123, 6, "0.000123"),
        (3.0, -2, "3"),
    ])
    func everydayNumbers(value: Double, decimals: Int, text: String) {
        #expect(DecimalText.fixed(value, decimals) == text, "fixed(\(value), \(decimals))")
    }

    /// 19 places and more (a plot's tick labels on a tiny axis) trapped: 10^19 is no Int64.
    /// The places past a Double's precision are zeros.
    @Test(arguments: [
        (1e-18, 19, "0.0000000000000000010"),
        (2e-19, 19, "0.0000000000000000002"),
        (1e-300, 300, "0." + String(repeating: "0", count: 299) + "1"),
        (0.0, 25, "0." + String(repeating: "0", count: 25)),
        (1.5, 20, "1.5" + String(repeating: "0", count: 19)),
        (-0.25, 40, "-0.25" + String(repeating: "0", count: 38)),
        (123456789.0, 8, "123456789.00000000"),
        (1.0, 400, "1." + String(repeating: "0", count: 400)),
    ])
    func anyNumberOfPlacesIsPaddedWithZeros(value: Double, decimals: Int, text: String) {
        #expect(DecimalText.fixed(value, decimals) == text, "fixed(\(value), \(decimals))")
    }

    @Test func whatHasNoDigitsIsWrittenAsBefore() {
        #expect(DecimalText.fixed(.nan, 30) == "0")
        #expect(DecimalText.fixed(-.infinity, 2) == "0")
        #expect(DecimalText.fixed(1e20, 2) == "\(1e20)")
    }
}
