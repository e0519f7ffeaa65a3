import FlickCore

/// Numbers as text without Foundation (FlickCore cannot use `String(format:)`).
public enum DecimalText {
    /// `value` with exactly `decimals` digits after the point, rounded half away from zero:
    /// `fixed(2.5, 1)` is "2.5", `fixed(-0.04, 1)` is "0.0" (no negative zero). Not-a-number
    /// and infinities become "0"; magnitudes beyond 9·10^15 units of the last digit are written
    /// as Swift prints them.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let whole = Int64(scaled)
        let unit = Int64(scale)
        var text = (value < 0 && whole != 0 ? "-" : "") + String(whole / unit)
        if decimals > 0 {
            let fraction = String(whole % unit)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }
}
