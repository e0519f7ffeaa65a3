import FlickCore

/// Numbers as text without Foundation (FlickCore cannot use `String(format:)`).
public enum DecimalText {
    /// `value` with exactly `decimals` digits after the point (any count ≥ 0; a negative count
    /// is 0), rounded half away from zero: `fixed(2.5, 1)` is "2.5", `fixed(-0.04, 1)` is "0.0"
    /// (no negative zero). Digits past a Double's precision (past 16 significant digits, or
    /// 308 places) are zeros: `fixed(1.5, 20)` is "1.50000000000000000000". Not-a-number and
    /// infinities become "0"; magnitudes of 9·10^15 and more are written as Swift prints them.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        let decimals = max(0, decimals)
        // The places computed: at most 308 (10^308 is the largest power of ten a Double
        // holds), fewer where the digits would reach 9·10^15, beyond which a Double carries
        // none. The point is placed in the text, so no power of ten need fit an Int64.
        var computed = min(decimals, powersOfTen.count - 1)
        var scaled = (abs(value) * powersOfTen[computed]).rounded()
        while scaled >= 9e15, computed > 0 {
            computed -= 1
            scaled = (abs(value) * powersOfTen[computed]).rounded()
        }
        guard scaled < 9e15 else { return "\(value)" }
        let whole = Int64(scaled)
        var digits = String(whole)
        // At least one digit before the point.
        if digits.count <= computed {
            digits = String(repeating: "0", count: computed + 1 - digits.count) + digits
        }
        let sign = value < 0 && whole != 0 ? "-" : ""
        guard decimals > 0 else { return sign + digits }
        let point = digits.index(digits.endIndex, offsetBy: -computed)
        return sign + digits[..<point] + "." + digits[point...] + String(repeating: "0", count: decimals - computed)
    }

    /// 10^0 through 10^308, each the Double nearest to it.
    private static let powersOfTen: [Double] = (0...308).map { Double("1e\($0)")! }
}
