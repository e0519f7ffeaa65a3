import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import FlickCore
@testable import FlickTools

/// One element of a parsed SVG: its name, attributes, text, and the `<g id>` it is inside.
private struct Element {
    var name: String
    var attributes: [String: String]
    var text = ""
    var group: String?

    var classes: [Substring] { (attributes["class"] ?? "").split(separator: " ") }
    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }

    /// A polyline's points, in pixels.
    var points: [(x: Double, y: Double)] {
        (attributes["points"] ?? "").split(separator: " ").compactMap { pair in
            let xy = pair.split(separator: ",").compactMap { Double($0) }
            return xy.count == 2 ? (xy[0], xy[1]) : nil
        }
    }
}

/// Parses `svg` with Foundation's XMLParser; records a test issue when it is not well-formed XML.
private final class SVGDocument: NSObject, XMLParserDelegate {
    private(set) var elements: [Element] = []
    private var open: [Int] = []
    private var groups: [String?] = []
    private(set) var error: Error?

    init(_ svg: String) {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        if !parser.parse() { error = parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let group = groups.last(where: { $0 != nil }) ?? nil
        elements.append(Element(name: name, attributes: attributes, group: group))
        open.append(elements.count - 1)
        groups.append(name == "g" ? attributes["id"] : nil)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let index = open.last { elements[index].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
        groups.removeLast()
    }

    func all(_ name: String, class wanted: String? = nil, in group: String? = nil) -> [Element] {
        elements.filter { element in
            element.name == name && (wanted.map { element.classes.contains(Substring($0)) } ?? true)
                && (group.map { element.group == $0 } ?? true)
        }
    }

    /// The linear map from pixels to values given by a panel's tick marks of `axis`
    /// ("x", "y-left", "y-right"), and the size of one pixel in values.
    func scale(_ axis: String, in group: String) throws -> (value: (Double) -> Double, pixel: Double) {
        let ticks = all("line", class: "tick-mark", in: group).filter { $0.classes.contains(Substring(axis)) }
        let coordinate = axis == "x" ? "x1" : "y1"
        let marks = try ticks.map { tick -> (pixel: Double, value: Double) in
            (try #require(tick.number(coordinate)), try #require(tick.number("data-value")))
        }
        #expect(marks.count >= 3, "\(group) \(axis): at least three ticks, got \(marks.count)")
        let first = try #require(marks.first), last = try #require(marks.last)
        let perPixel = (last.value - first.value) / (last.pixel - first.pixel)
        // Every tick lies on the same line: the axis is linear.
        for mark in marks {
            #expect(abs(first.value + (mark.pixel - first.pixel) * perPixel - mark.value) < abs(perPixel) * 0.02,
                    "\(group) \(axis): tick \(mark.value) at pixel \(mark.pixel) is off the line")
        }
        return ({ first.value + ($0 - first.pixel) * perPixel }, abs(perPixel))
    }
}

/// Plots under the defaults and under other settings, read back from the SVG as a viewer would.
@Suite struct CoastPlotTests {
    /// The defaults with the wheel output (`output.mode = "wheel"`).
    let defaults: Configuration = {
        var configuration = Configuration.defaults
        configuration.output.mode = .wheel
        return configuration
    }()

    /// k for the default rate 0.998, per second.
    var k: Double { Deceleration(ratePerMillisecond: 0.998).decayPerSecond }

    /// When the wheel output of a coast at `v0` units/s (rate 0.998) has written the destination
    /// rounded, D: the output runs 60 units ahead of the model, so when the model is 60.5 short.
    func written(_ v0: Double) -> Double {
        let d = (v0 / k).rounded()
        return -log(1 - k * (d - 60.5) / v0) / k
    }

    // MARK: The curves

    @Test func eachDefaultSpeedCoastsToItsDestinationOrIsCutAtMaxDuration() throws {
        let plot = CoastPlot(configuration: defaults)
        #expect(plot.curves.map(\.releaseSpeed) == [50, 100, 200, 400])
        let maxSeconds = 5.0  // coast.max_duration's default
        for curve in plot.curves {
            // A release of s mm/s at `speed` hi-res units/mm is v0 = speed·s units/s; X = v0/k.
            let v0 = curve.releaseSpeed * defaults.scroll.speed
            let last = try #require(curve.samples.last)
            let settle = written(v0)
            #expect(curve.coasts && !curve.isClamped)
            if settle <= maxSeconds {
                // 400 mm/s (36000 units/s at 90 units/mm), whose model comes within half a unit
                // of rest only after 5.24 s, has written all of it by 2.84 s.
                #expect(curve.settles)
                #expect(last.hiResUnits == (v0 / k).rounded(), "ends at round(X), X = v0/k: \(last.hiResUnits) vs \(v0 / k)")
                #expect(abs(curve.duration - settle) < 1e-6, "ends when the output has written round(X): \(curve.duration) vs \(settle)")
            } else {
                let cut = Deceleration(ratePerMillisecond: 0.998).position(after: maxSeconds, velocity: v0) + 60
                #expect(!curve.settles && curve.duration == maxSeconds)
                #expect(abs(last.hiResUnits - cut) < 1e-9, "ends where max_duration cuts it: \(last.hiResUnits) vs \(cut)")
            }
            #expect(curve.samples.first?.hiResUnitsPerSecond == v0)
            #expect(curve.samples.first?.hiResUnits == 60, "the wheel output's first event carries the 60-unit lead")
            // Position rises and velocity falls all the way.
            for (a, b) in zip(curve.samples, curve.samples.dropFirst()) {
                #expect(b.seconds > a.seconds && b.hiResUnits >= a.hiResUnits && b.hiResUnitsPerSecond <= a.hiResUnitsPerSecond)
            }
        }
    }

    @Test func theDesignNotesGoldenCaseIsOnTheCurve() {
        // DESIGN_NOTES §1: v0 = 1000 units/s at 0.998 → x(0.5 s) = 315.928, X = 499.4998. The
        // wheel output runs 60 units ahead; the virtual fingers follow the model itself.
        for mode in OutputMode.allCases {
            var configuration = defaults
            configuration.output.mode = mode
            configuration.scroll.speed = 10  // 100 mm/s × 10 units/mm = 1000 units/s
            let curve = CoastPlot(configuration: configuration, speeds: [100]).curves[0]
            let nearHalf = curve.samples.min { abs($0.seconds - 0.5) < abs($1.seconds - 0.5) }!
            let expected = Deceleration(ratePerMillisecond: 0.998).position(after: nearHalf.seconds, velocity: 1000)
            let lead = mode == .wheel ? 60.0 : 0
            #expect(abs(nearHalf.hiResUnits - expected - lead) < 1e-9, "\(mode)")
            switch mode {
            case .wheel:
                // Its output has written round(X) = 499 when the model is at 438.5: after 1.0503 s.
                #expect(curve.samples.last?.hiResUnits == 499)
                #expect(abs(curve.duration - 1.0503) < 1e-4, "\(curve.duration)")
            case .touchpad:
                // The fingers stop 0.05 mm (0.5 units at 10 units/mm) short of X: T(ε) from the
                // golden table, 3.4499 s.
                #expect(abs((curve.samples.last?.hiResUnits ?? 0) - 498.9998) < 1e-4)
                #expect(abs(curve.duration - 3.4499) < 1e-4, "\(curve.duration)")
            }
        }
    }

    @Test func slowReleasesDoNotCoastAndFastOnesAreClamped() {
        // min_speed 50, max_speed 1500 by default.
        let plot = CoastPlot(configuration: defaults, speeds: [49.9, 50, 3000])
        #expect(!plot.curves[0].coasts && plot.curves[0].samples.isEmpty)
        #expect(plot.curves[1].coasts, "exactly min_speed coasts, as in the engine")
        #expect(plot.curves[2].coastSpeed == 1500 && plot.curves[2].isClamped)
        // 1500 mm/s × 90 = 135000 units/s: the output has written round(X) after 3.50 s.
        #expect(plot.curves[2].settles && abs(plot.curves[2].duration - written(135_000)) < 1e-6)
    }

    @Test func aCoastCutByMaxDurationEndsWhereTheEngineStopsIt() {
        var configuration = defaults
        configuration.coast.maxDuration = .milliseconds(1000)
        let curve = CoastPlot(configuration: configuration, speeds: [200]).curves[0]
        #expect(!curve.settles && curve.duration == 1)
        // Where the wheel output is then, in whole units: the model plus the lead.
        #expect(curve.distanceHiRes == (Deceleration(ratePerMillisecond: 0.998).position(after: 1, velocity: 200 * defaults.scroll.speed) + 60).rounded())
    }

    // MARK: The SVG, read back

    @Test func theSVGIsWellFormedWithTwoPanelsAndOneCurvePerCoastingSpeedInEach() throws {
        let svg = CoastPlot(configuration: defaults, speeds: [30, 100, 400, 2000]).svg(source: "built-in defaults")
        let document = SVGDocument(svg)
        #expect(document.error == nil, "not well-formed XML: \(String(describing: document.error))")
        #expect(document.elements.first?.name == "svg")
        #expect(document.all("polyline", class: "curve").count == 6, "three coasting speeds × two panels")
        #expect(document.all("polyline", class: "curve", in: "position-panel").count == 3)
        #expect(document.all("polyline", class: "curve", in: "velocity-panel").count == 3)
        #expect(document.all("path").isEmpty)
        let speeds = document.all("polyline", class: "position").compactMap { $0.attributes["data-release-speed"] }
        #expect(speeds == ["100", "400", "2000"])
    }

    @Test func theTitleNamesTheSettingsAndTheAxesTheirUnits() throws {
        var configuration = defaults
        configuration.coast.decelerationRate = 0.995
        configuration.scroll.speed = 30
        configuration.coast.maxDuration = .milliseconds(4000)
        let document = SVGDocument(CoastPlot(configuration: configuration).svg(source: "/home/me/.config/flickd/config.toml"))
        #expect(document.all("text").first { $0.attributes["id"] == "title" } != nil)
        // Its lines, read together: a title too wide for one goes on below.
        let title = document.all("text", class: "title").map(\.text).joined(separator: " ")
        #expect(title.contains("deceleration_rate 0.995"), "\(title)")
        #expect(title.contains("scroll.speed 30"), "\(title)")
        #expect(title.contains("max_duration 4000 ms"), "\(title)")
        let texts = document.all("text").map(\.text)
        #expect(texts.contains("settings: /home/me/.config/flickd/config.toml"))
        for label in ["position (wheel detents)", "finger travel equivalent (mm)", "velocity (detents/s)",
                      "finger speed equivalent (mm/s)", "time after release (s)", "Scroll position", "Velocity"] {
            #expect(texts.contains(label), "axis label \"\(label)\" present")
        }
        #expect(document.all("text", class: "axis-label").count == 6, "x, left and right in each panel")
        #expect(document.all("text", class: "tick").count >= 20)
    }

    @Test func eachPositionCurveEndsAtItsDestinationInDetentsWithinAPixel() throws {
        let plot = CoastPlot(configuration: defaults)
        let document = SVGDocument(plot.svg(source: "built-in defaults"))
        let time = try document.scale("x", in: "position-panel")
        let detents = try document.scale("y-left", in: "position-panel")
        let lines = document.all("polyline", class: "position")
        #expect(lines.count == 4)
        for (line, curve) in zip(lines, plot.curves) {
            let end = try #require(line.points.last)
            let destination = (curve.releaseSpeed * defaults.scroll.speed / k).rounded() / 120  // round(X), in detents
            #expect(abs(detents.value(end.y) - destination) <= detents.pixel,
                    "\(curve.releaseSpeed) mm/s: ends at \(detents.value(end.y)) detents, X = \(destination) (one pixel = \(detents.pixel))")
            #expect(abs(time.value(end.x) - curve.duration) <= time.pixel,
                    "\(curve.releaseSpeed) mm/s: ends at \(time.value(end.x)) s, expected \(curve.duration) s")
            let start = try #require(line.points.first)
            #expect(abs(detents.value(start.y) - 0.5) <= detents.pixel && abs(time.value(start.x)) <= time.pixel,
                    "starts at 0 s and the lead, half a detent")
        }
    }

    @Test func theRightAxesShowTheSameScaleInMillimetres() throws {
        // One detent (120 units) is 120 / speed mm of finger travel (4/3 mm at the default 90).
        let millimetresPerDetent = 120 / defaults.scroll.speed
        let document = SVGDocument(CoastPlot(configuration: defaults).svg(source: "built-in defaults"))
        for panel in ["position-panel", "velocity-panel"] {
            let detents = try document.scale("y-left", in: panel)
            let millimetres = try document.scale("y-right", in: panel)
            for pixel in [100.0, 200.0, 300.0] {
                #expect(abs(millimetres.value(pixel) - millimetresPerDetent * detents.value(pixel)) < millimetres.pixel, "\(panel) at y = \(pixel)")
            }
        }
    }

    @Test func velocityCurvesStartAtTheReleaseVelocityInDetentsPerSecond() throws {
        let plot = CoastPlot(configuration: defaults)
        let document = SVGDocument(plot.svg(source: "built-in defaults"))
        let rate = try document.scale("y-left", in: "velocity-panel")
        let lines = document.all("polyline", class: "velocity")
        // The default speeds, 50 to 400 mm/s, all coast: one velocity curve each.
        #expect(plot.curves.count == CoastPlot.defaultSpeeds.count && plot.curves.allSatisfy(\.coasts))
        #expect(lines.count == plot.curves.count, "\(lines.count) velocity curves for \(plot.curves.count) speeds")
        for (line, curve) in zip(lines, plot.curves) {
            let start = try #require(line.points.first)
            #expect(abs(rate.value(start.y) - curve.releaseSpeed * defaults.scroll.speed / 120) <= rate.pixel)
            let end = try #require(line.points.last)
            // The output stops when the model is 60.5 units short of rest: at 60.5·k units/s.
            #expect(abs(rate.value(end.y) - 60.5 * k / 120) <= rate.pixel, "ends at \(rate.value(end.y)) detents/s")
        }
    }

    @Test func theLegendSaysNoCoastAndClamped() throws {
        var configuration = defaults
        configuration.coast.maxDuration = .milliseconds(3000)
        let document = SVGDocument(CoastPlot(configuration: configuration, speeds: [20, 200, 1800]).svg(source: "built-in defaults"))
        let texts = document.all("text").map(\.text)
        let entries = document.all("text", class: "legend-entry").map(\.text)
        #expect(entries == ["20 mm/s: no coast", "200 mm/s", "1800 mm/s"])
        #expect(texts.contains("slower than min_speed, 50 mm/s"))
        #expect(texts.contains("clamped to max_speed, 1500 mm/s"))
        #expect(texts.contains("cut at 3.00 s by max_duration"), "1500 mm/s needs 3.50 s: cut")
        #expect(texts.contains { $0.hasPrefix("at rest after ") })
        #expect(document.all("line", class: "max-duration").count == 2, "the cut is marked in both panels")
    }

    @Test func whenNothingCoastsTheAxesAreStillDrawn() throws {
        let document = SVGDocument(CoastPlot(configuration: defaults, speeds: [10, 20]).svg(source: "x"))
        #expect(document.error == nil)
        #expect(document.all("polyline").isEmpty)
        _ = try document.scale("x", in: "position-panel")
        _ = try document.scale("y-left", in: "velocity-panel")
    }

    @Test func textIsEscaped() throws {
        let document = SVGDocument(CoastPlot(configuration: defaults).svg(source: "/tmp/a & b <\"c\">.toml"))
        #expect(document.error == nil)
        #expect(document.all("text").map(\.text).contains("settings: /tmp/a & b <\"c\">.toml"))
    }

    /// A --config path holding a control character (an escape, a bell) that XML 1.0 does not
    /// allow: shown as U+FFFD, and the document stays well-formed.
    @Test func aControlCharacterInThePathIsReplaced() throws {
        let svg = CoastPlot(configuration: defaults).svg(source: "/tmp/\u{1B}[31mred\u{7}.toml")
        let document = SVGDocument(svg)
        #expect(document.error == nil, "not well-formed XML: \(String(describing: document.error))")
        #expect(document.all("text").map(\.text).contains("settings: /tmp/\u{FFFD}[31mred\u{FFFD}.toml"))
        #expect(!svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func shortCoastsGetDecimalTicks() throws {
        var configuration = defaults
        configuration.coast.decelerationRate = 0.99  // "fast": coasts of about half a second
        let document = SVGDocument(CoastPlot(configuration: configuration).svg(source: "x"))
        let labels = document.all("text", class: "tick", in: "position-panel").filter { $0.classes.contains("x") }.map(\.text)
        // The longest, 400 mm/s (36000 units/s at 90 units/mm), has written everything after 0.41 s.
        #expect(labels == ["0.0", "0.1", "0.2", "0.3", "0.4", "0.5"], "\(labels)")
    }

    /// Axes of any length get ticks a reader can tell apart: at most `maximumDecimals` places,
    /// a finite end at or past the maximum, each label different. A maximum of 1e-18 asked for
    /// 19 places (`DecimalText` trapped on them); a subnormal one for a step of 0 (its tick loop
    /// never ended: the time limit makes that a failure, not a hung run).
    @Test(.timeLimit(.minutes(1)), arguments: [1.05e-18, 1e-300, Double.leastNonzeroMagnitude, 3e-10, 0.0042, 1, 123_456, Double.greatestFiniteMagnitude])
    func ticksOfAnyAxisHaveBoundedDecimalsAndDistinctLabels(maximum: Double) {
        for extend in [true, false] {
            let ticks = CoastPlot.Ticks(upTo: maximum, extend: extend)
            let values = ticks.values
            let labels = values.map(ticks.label)
            #expect((0...CoastPlot.Ticks.maximumDecimals).contains(ticks.decimals), "\(maximum): \(ticks.decimals) decimals")
            #expect(ticks.step > 0 && ticks.upper.isFinite && ticks.upper > 0, "\(maximum): step \(ticks.step), upper \(ticks.upper)")
            if extend { #expect(ticks.upper >= maximum, "\(maximum): the axis ends at \(ticks.upper)") }
            #expect(!values.isEmpty && values.count <= 11, "\(maximum): \(values.count) ticks")
            #expect(Set(labels).count == labels.count, "\(maximum): \(labels)")
        }
    }

    /// `flickd plot --speeds 1e-18` with `coast.min_speed = 0`: a coast far too small to see is
    /// drawn along 0 of an axis of 10⁻⁹, labelled with nine places (its velocity: the wheel
    /// output writes nothing at all).
    @Test func aVanishinglySlowReleaseIsPlottedOnTheSmallestAxis() throws {
        var configuration = defaults
        configuration.coast.minSpeed = 0
        let plot = CoastPlot(configuration: configuration, speeds: [1e-18])
        #expect(plot.curves[0].coasts)
        let document = SVGDocument(plot.svg(source: "x"))
        #expect(document.error == nil)
        #expect(plot.curves[0].distanceHiRes == 0)
        let labels = document.all("text", class: "tick", in: "velocity-panel").filter { $0.classes.contains("y-left") }.map(\.text)
        #expect(labels == ["0.000000000", "0.000000001"], "\(labels)")
    }

    /// Attributes come from dictionaries, whose order changes from one process to the next: the
    /// writer sorts them by name. Two plots made in one process share an order whether sorted or
    /// not, so the order is checked in the text itself: each element's own attributes in the
    /// writer's fixed order (`x`, `y` of a text, ...), then the others by name.
    @Test func theOutputIsTheSameEveryTime() throws {
        let plot = CoastPlot(configuration: defaults)
        let svg = plot.svg(source: "x")
        #expect(svg == plot.svg(source: "x"))
        let leading: [String: [String]] = [
            "svg": ["xmlns", "width", "height", "viewBox", "font-family"], "text": ["x", "y"],
            "rect": ["x", "y", "width", "height"], "line": ["x1", "y1", "x2", "y2"],
            "circle": ["cx", "cy", "r"], "polyline": ["points"],
        ]
        let tag = try Regex(#"<([A-Za-z]+)((?: [^<>]*)?)/?>"#)
        let attribute = try Regex(#" ([A-Za-z_:][-A-Za-z0-9_:.]*)=""#)
        var elements = 0, sortedRuns = 0
        for match in svg.matches(of: tag) {
            let name = String(try #require(match.output[1].substring))
            let text = match.output[2].substring ?? ""
            let names = text.matches(of: attribute).compactMap { $0.output[1].substring.map(String.init) }
            let fixed = leading[name] ?? []
            let rest = Array(names.dropFirst(fixed.count))
            #expect(Array(names.prefix(fixed.count)) == fixed, "<\(name)>: \(names)")
            #expect(rest == rest.sorted(), "<\(name)>: \(rest) is not in name order")
            elements += 1
            if rest.count >= 3 { sortedRuns += 1 }
        }
        // Enough elements with several attributes that an unsorted writer could not pass.
        #expect(elements > 50 && sortedRuns > 20, "\(elements) elements, \(sortedRuns) with 3 or more attributes")
    }
    // MARK: The output the daemon writes

    /// The touchpad output, the default, ends where the virtual fingers stop: 0.05 mm short of
    /// rest, whatever `scroll.speed` (50 mm/s: 3.10 s; 400 mm/s: 4.14 s, not cut at 5 s as the
    /// wheel model's half unit said), and the legend says so.
    @Test func theTouchpadOutputEndsWhereTheFingersStop() throws {
        for speed in [90.0, 30] {
            var configuration = Configuration.defaults
            configuration.scroll.speed = speed
            let plot = CoastPlot(configuration: configuration)
            for curve in plot.curves {
                let settle = Deceleration(ratePerMillisecond: 0.998).settleTime(velocity: curve.releaseSpeed, epsilon: 0.05)
                #expect(curve.settles && abs(curve.duration - settle) < 1e-6, "\(curve.releaseSpeed) mm/s: \(curve.duration) s")
                let last = try #require(curve.samples.last)
                #expect(abs(last.hiResUnits - (curve.releaseSpeed / k - 0.05) * speed) < 1e-5)
            }
            #expect(abs(plot.curves[0].duration - 3.10) < 0.005 && abs(plot.curves[3].duration - 4.14) < 0.005)
        }
        let texts = SVGDocument(CoastPlot(configuration: .defaults).svg(source: "x")).all("text").map(\.text)
        #expect(texts.contains("● at rest (within 0.05 mm)"))
        #expect(texts.contains { $0.hasPrefix("Coasts (output.mode touchpad)") })
        var cut = Configuration.defaults
        cut.coast.maxDuration = .milliseconds(2000)
        let curve = CoastPlot(configuration: cut, speeds: [400]).curves[0]
        #expect(!curve.settles && curve.duration == 2)
    }

    /// With the touchpad output, the default, scroll.speed does not apply (the virtual fingers'
    /// travel is scaled by libinput and the apps): two plots that differ only in it are the same
    /// document, in mm and mm/s, with no detents and no scroll.speed. With the wheel output it
    /// scales everything, and the plots differ.
    @Test func theTouchpadPlotDoesNotDependOnScrollSpeed() throws {
        func svg(_ mode: OutputMode, speed: Double) -> String {
            var configuration = Configuration.defaults
            configuration.output.mode = mode
            configuration.scroll.speed = speed
            return CoastPlot(configuration: configuration, speeds: [50, 100, 200, 400, 2000]).svg(source: "x")
        }
        let touchpad = svg(.touchpad, speed: 90)
        #expect(touchpad == svg(.touchpad, speed: 30), "scroll.speed changed the touchpad plot")
        #expect(touchpad == svg(.touchpad, speed: 7.5), "scroll.speed changed the touchpad plot")
        #expect(svg(.wheel, speed: 90) != svg(.wheel, speed: 30), "the wheel plot follows scroll.speed")

        let document = SVGDocument(touchpad)
        let texts = document.all("text").map(\.text)
        #expect(!touchpad.contains("scroll.speed") && !touchpad.contains("detent"), "\(texts)")
        for label in ["position (mm of finger travel)", "velocity (mm/s of finger travel)"] {
            #expect(texts.contains(label), "axis label \"\(label)\" present")
        }
        #expect(document.all("text", class: "axis-label").count == 4, "x and left in each panel: the left is in mm already")
        // In mm: 400 mm/s comes to rest 0.05 mm short of 400/k mm.
        let position = try document.scale("y-left", in: "position-panel")
        let end = try #require(document.all("polyline", class: "position").first { $0.attributes["data-release-speed"] == "400" }?.points.last)
        #expect(abs(position.value(end.y) - (400 / k - 0.05)) <= position.pixel, "ends at \(position.value(end.y)) mm")
        let rate = try document.scale("y-left", in: "velocity-panel")
        let start = try #require(document.all("polyline", class: "velocity").first { $0.attributes["data-release-speed"] == "400" }?.points.first)
        #expect(abs(rate.value(start.y) - 400) <= rate.pixel, "starts at \(rate.value(start.y)) mm/s")
        #expect(texts.contains("\(DecimalText.fixed(400 / k - 0.05, 0)) mm of finger travel,"), "\(texts)")
    }

    // MARK: Text on the canvas

    /// Every `<text>` of `svg` lies on its canvas: its baseline at most the height, its right
    /// end, by an estimate of its width, at most the width (a rotated one, its ends in height).
    /// The estimate: characters × font size × 0.62, wider than DejaVu Sans's average.
    func expectTextOnTheCanvas(_ svg: String, _ what: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = SVGDocument(svg)
        #expect(document.error == nil, "not well-formed XML", sourceLocation: sourceLocation)
        let canvas = try #require(document.elements.first { $0.name == "svg" })
        let width = try #require(canvas.number("width")), height = try #require(canvas.number("height"))
        let texts = document.all("text")
        #expect(texts.count > 40, sourceLocation: sourceLocation)
        for text in texts {
            let x = try #require(text.number("x")), y = try #require(text.number("y"))
            let size = try #require(text.number("font-size"), "\(text.text): no font-size")
            let length = Double(text.text.count) * size * 0.62
            let start: Double
            switch text.attributes["text-anchor"] {
            case "end": start = x - length
            case "middle": start = x - length / 2
            default: start = x
            }
            if text.attributes["transform"] != nil {
                // The axis labels, turned a quarter: their length runs up and down from the middle.
                #expect(x <= width && y - length / 2 >= 0 && y + length / 2 <= height,
                        "\(what): \"\(text.text)\" at (\(x), \(y)), turned, leaves the \(width) × \(height) canvas",
                        sourceLocation: sourceLocation)
                continue
            }
            #expect(y <= height, "\(what): \"\(text.text)\" at y \(y) is below the canvas's \(height)", sourceLocation: sourceLocation)
            #expect(start + length <= width,
                    "\(what): \"\(text.text)\" from x \(start) ends at \(start + length), past the canvas's \(width)",
                    sourceLocation: sourceLocation)
        }
    }

    /// Eight release speeds, each clamped (a third legend line each), and two [[device]] sections
    /// named at length: the legend wraps the names and the canvas grows to hold it all. (The
    /// name ran to x ≈ 1013 and the note of the sections below the 760-pixel canvas.)
    @Test func aLongLegendStaysOnTheCanvas() throws {
        var elan = Configuration.defaults
        elan.coast.maxSpeed = 1200
        var apple = Configuration.defaults
        apple.coast.decelerationRate = 0.99
        for mode in OutputMode.allCases {
            var configuration = Configuration.defaults
            configuration.output.mode = mode
            configuration.devices = [
                DeviceRule(name: "ELAN0678:00 04F3:3195 Touchpad", configuration: elan),
                DeviceRule(name: "Apple Inc. Magic Trackpad 2 (Bluetooth)", vendor: 0x05ac, product: 0x0265, configuration: apple),
            ]
            let plot = CoastPlot(configuration: configuration, speeds: [1600, 1700, 1800, 1900, 2000, 2100, 2200, 2300])
            #expect(plot.curves.allSatisfy { $0.isClamped })
            let svg = plot.svg(source: "/home/someone/.config/flickd/config.toml")
            try expectTextOnTheCanvas(svg, "\(mode)")
            // Each section is named whole on its first line's data-section, and all of its text is there.
            let document = SVGDocument(svg)
            let firsts = document.all("text", class: "section-not-shown")
            #expect(firsts.compactMap { $0.attributes["data-section"] } == plot.sectionsNotShown)
            let legend = document.all("text", in: "legend").map(\.text).joined(separator: " ")
            for section in plot.sectionsNotShown {
                #expect(legend.contains(section), "\(section) in \(legend)")
            }
        }
    }

    /// The wheel output's title names scroll.speed as well, and with longer values it is wider
    /// than the canvas: it goes on on a second line, the panels below it. (It ran to x ≈ 1018
    /// at the defaults.) A long settings path is cut into lines too.
    @Test func aLongTitleStaysOnTheCanvas() throws {
        var configuration = defaults
        configuration.coast.decelerationRate = 0.9995
        configuration.coast.maxDuration = .milliseconds(12500)
        try expectTextOnTheCanvas(CoastPlot(configuration: configuration).svg(source: "built-in defaults"), "0.9995, 12500 ms")
        try expectTextOnTheCanvas(CoastPlot(configuration: defaults).svg(source: "built-in defaults"), "wheel defaults")
        let path = "/home/someone/" + String(repeating: "a-very-long-directory-name/", count: 8) + "config.toml"
        let svg = CoastPlot(configuration: configuration).svg(source: path)
        try expectTextOnTheCanvas(svg, "a long path")
        let document = SVGDocument(svg)
        #expect(document.all("text", class: "source").map(\.text).joined() == "settings: \(path)")
        let title = document.all("text", class: "title").map(\.text).joined(separator: " ")
        #expect(title == "Coasts (output.mode wheel): deceleration_rate 0.9995, scroll.speed 90 units/mm, max_duration 12500 ms")
        // The panels start below the header's last line.
        let header = document.all("text").filter { ["title", "subtitle", "source"].contains($0.attributes["class"] ?? "") }
        let lastLine = try #require(header.compactMap { $0.number("y") }.max())
        let panelTitle = try #require(document.all("text", class: "panel-title").first?.number("y"))
        #expect(panelTitle >= lastLine + 20, "the panel's title at \(panelTitle), the header's last line at \(lastLine)")
    }

    /// A long path after a line that is already full, or full but for the space: the path
    /// starts on the next line, whole, rather than after a space there (or a line ends with the
    /// space). Wherever the line before ends, no line starts or ends with a space, none is longer
    /// than fits, and every character of the pieces is there in order.
    @Test func aLongPathAfterAFullLineStartsNoLineWithASpace() {
        let fit = CoastPlot.characters(fitting: 300, fontSize: 12)
        let path = "/home/someone/" + String(repeating: "a-very-long-directory-name/", count: 3) + "config.toml"
        #expect(path.count > 2 * fit)
        for lead in 1...fit + 1 {
            let pieces = ["settings:", String(repeating: "x", count: lead), path, "and", "more"]
            let lines = CoastPlot.wrap(pieces, fontSize: 12, width: 300)
            for line in lines {
                #expect(!line.isEmpty && line.first != " " && line.last != " " && line.count <= fit, "lead \(lead): \"\(line)\" in \(lines)")
            }
            #expect(lines.joined().filter { $0 != " " } == pieces.joined(), "lead \(lead): \(lines)")
        }
        // Full to the last character: the path goes on from the start of the next line.
        let full = String(repeating: "x", count: fit)
        let lines = CoastPlot.wrap([full, path], fontSize: 12, width: 300)
        #expect(lines.first == full && lines.dropFirst().first == String(path.prefix(fit)), "\(lines)")
    }

    // MARK: [[device]] sections

    /// The plot draws the top-level settings: each enabled [[device]] section whose coasts
    /// differ in what the plot draws is named in the legend, as `flickd run` would coast its
    /// devices otherwise; a disabled section, one that differs only in what the plot does not
    /// draw (boost), or, with the touchpad output, only in scroll.speed, is not.
    @Test func deviceSectionsWithCoastsOfTheirOwnAreNamed() throws {
        func section(_ name: String?, vendor: UInt16? = nil, enabled: Bool = true,
                     _ change: (inout Configuration) -> Void) -> DeviceRule {
            var settings = Configuration.defaults
            change(&settings)
            return DeviceRule(name: name, vendor: vendor, enabled: enabled, configuration: settings)
        }
        var configuration = Configuration.defaults
        configuration.devices = [
            section("Apple", vendor: 0x5ac) { $0.coast.decelerationRate = 0.99 },
            section("Off", enabled: false) { $0.coast.decelerationRate = 0.99 },
            section("Boost") { $0.coast.boost = false },
            section("Speed") { $0.scroll.speed = 30 },
            section(nil) { $0.coast.maxDuration = .milliseconds(2000) },
        ]
        let touchpad = CoastPlot(configuration: configuration)
        #expect(touchpad.sectionsNotShown == ["device[1] (name \"Apple\", vendor 0x05ac)", "device[5]"])
        let named = SVGDocument(touchpad.svg(source: "x")).all("text", class: "section-not-shown").map(\.text)
        // Short enough for one line each: the first line is the whole name.
        #expect(named == touchpad.sectionsNotShown)
        configuration.output.mode = .wheel
        #expect(CoastPlot(configuration: configuration).sectionsNotShown
                == ["device[1] (name \"Apple\", vendor 0x05ac)", "device[4] (name \"Speed\")", "device[5]"])
        #expect(SVGDocument(CoastPlot(configuration: defaults).svg(source: "x")).all("text", class: "section-not-shown").isEmpty)
    }

    /// The plot's end is the engine's: a 400 mm/s flick driven through an engine with each
    /// output ends, as its report says, when and how the plot's curve for that speed ends.
    @Test("the plot's curve ends when and how the engine's coast ends, for each output", arguments: OutputMode.allCases)
    func thePlotEndsWhereTheEngineEnds(output: OutputMode) throws {
        for maxDuration in [5000, 3000] {
            var configuration = Configuration.defaults
            configuration.output.mode = output
            configuration.coast.maxDuration = .milliseconds(Int64(maxDuration))
            let coast = try CoastEndReasonTests.flick(millimetres: 40, output: output, configuration: configuration)
            let curve = CoastPlot(configuration: configuration, speeds: [coast.plan.velocity.length]).curves[0]
            #expect(curve.settles == (coast.reason == .finished), "\(output), \(maxDuration) ms: plot \(curve.settles), engine \(coast.reason)")
            #expect(coast.reason == .finished || coast.reason == .maxDuration)
            // The models start within a frame of the release (the wheel's a tick period before
            // it, the fingers' a frame less the lead); the last frame or event is on the frame grid.
            let ended = (coast.end - coast.release).seconds
            #expect(abs(ended - curve.duration) <= 2.0 / 120, "\(output), \(maxDuration) ms: engine \(ended) s, plot \(curve.duration) s")
        }
    }
}
