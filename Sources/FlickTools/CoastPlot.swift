import FlickCore

/// How coasts play out under a configuration, for `flickd plot`: one curve per release speed,
/// sampled from the same model and the same end rule the engine uses for the configured
/// output (`output.mode`), drawn as an SVG.
///
/// A release of `s` mm/s (clamped to `coast.max_speed`, no coast below `coast.min_speed`)
/// starts a velocity of `v0 = s · scroll.speed` hi-res units per second, which decays as
/// `Deceleration` says. With the wheel output the curve is what the wheel writes, the model
/// plus its 60-unit lead, and ends where `CoastExtent` ends it: when the output has written the
/// destination rounded, or cut at `coast.max_duration`. With the touchpad output it is the
/// virtual fingers' model, ending where `GlideExtent` ends it: within 0.05 mm of rest
/// (whatever `scroll.speed`), or cut at `coast.max_duration`; it is drawn in millimetres of the
/// fingers' travel, which `scroll.speed` does not scale (libinput and the apps scale it as they
/// scale the real fingers').
///
/// The plot follows the top-level settings only: a `[[device]]` section's own coast settings
/// are named (`sectionsNotShown`), not drawn.
public struct CoastPlot: Sendable {
    /// The release speeds drawn when none are given, mm/s.
    public static let defaultSpeeds: [Double] = [50, 100, 200, 400]

    /// Hi-res wheel units in one detent (one notch of a wheel).
    public static let hiResUnitsPerDetent = 120.0

    /// What one release speed does.
    public struct Curve: Hashable, Sendable {
        /// One point of a coast: time after release and where the coast is.
        public struct Sample: Hashable, Sendable {
            /// Seconds after release.
            public var seconds: Double
            /// Distance scrolled so far, hi-res wheel units (≥ 0).
            public var hiResUnits: Double
            /// Velocity, hi-res wheel units per second (≥ 0).
            public var hiResUnitsPerSecond: Double
            /// Distance scrolled so far, mm of finger travel (≥ 0): the virtual fingers' own
            /// with the touchpad output, the wheel's units ÷ `scroll.speed` with the wheel's.
            public var millimetres: Double
            /// Velocity, mm/s of finger travel (≥ 0), as `millimetres`.
            public var millimetresPerSecond: Double
        }

        /// The release speed asked for, mm/s of finger travel.
        public var releaseSpeed: Double
        /// The speed the coast starts with, mm/s: the release speed clamped to
        /// `coast.max_speed`; nil when the release is below `coast.min_speed` and does not coast.
        public var coastSpeed: Double?
        /// True when the output comes to rest (the wheel has written its destination rounded,
        /// the fingers are within 0.05 mm of rest); false when `coast.max_duration` cuts it.
        public var settles: Bool
        /// How long the output runs after its model's time zero (within a frame of the release),
        /// seconds (0 without a coast).
        public var duration: Double
        /// Where the coast ends, hi-res units: what the wheel output writes in all, or where
        /// the fingers' model stops, times `scroll.speed` (0 without a coast).
        public var distanceHiRes: Double
        /// Where the coast ends, mm of finger travel, as `Sample.millimetres` (0 without a coast).
        public var distanceMillimetres: Double
        /// The curve from release to the end, evenly spaced in time; the last sample is the end
        /// (empty without a coast).
        public var samples: [Sample]

        /// True when the release coasts.
        public var coasts: Bool { coastSpeed != nil }
        /// True when the release was faster than `coast.max_speed` and was clamped.
        public var isClamped: Bool { coastSpeed.map { $0 < releaseSpeed } ?? false }
    }

    /// The settings the curves follow.
    public let configuration: Configuration
    /// One curve per release speed, in the order given.
    public let curves: [Curve]

    /// Samples per curve between release and end (the end point is added exactly).
    static let samplesPerCurve = 240

    /// The coasts that releases at each of `speeds` (mm/s, > 0) make under `configuration`.
    public init(configuration: Configuration, speeds: [Double] = CoastPlot.defaultSpeeds) {
        self.configuration = configuration
        curves = speeds.map { Self.curve(releaseSpeed: $0, configuration: configuration) }
    }

    /// The coast a release at `releaseSpeed` starts, decided and ended as the engine does.
    static func curve(releaseSpeed: Double, configuration: Configuration) -> Curve {
        let settings = configuration.coast
        // The engine's own release decision: a release straight down the pad that travelled far
        // enough, with no coast to boost.
        let release = ReleaseDecision(velocity: Vector(x: 0, y: releaseSpeed), travel: .infinity, stoppedCoast: nil,
                                      at: .zero, settings: settings)
        guard releaseSpeed > 0, case .coast(let decided) = release else {
            return Curve(releaseSpeed: releaseSpeed, coastSpeed: nil, settles: true, duration: 0,
                         distanceHiRes: 0, distanceMillimetres: 0, samples: [])
        }
        let speed = abs(decided.velocity.y)
        // Drawn as distance scrolled, whichever way: the content-follows-fingers sign is positive.
        let v0 = decided.wheelVelocity(natural: true, unitsPerMillimetre: configuration.scroll.speed).vertical
        let deceleration = Deceleration(ratePerMillisecond: settings.decelerationRate)
        // The engine's own end rule for the configured output decides when it ends, and where,
        // so the plot cannot drift from it.
        let settles: Bool
        let duration: Double
        let position: (Double) -> Double
        // Millimetres at a time: the fingers' model in mm itself, not hi-res units divided back,
        // so that a touchpad plot is the same text whatever scroll.speed.
        let millimetres: (Double) -> (position: Double, velocity: Double)
        switch configuration.output.mode {
        case .wheel:
            let extent = CoastExtent(hiResUnitsPerSecond: v0, deceleration: deceleration, maxDuration: settings.maxDuration)
            (settles, duration) = (extent.settles, extent.duration.seconds)
            // The end is where the output is in whole units: all it writes.
            let end = extent.duration.seconds
            position = { $0 >= end ? Double(extent.totalVertical)
                                   : CoastExtent.output(after: $0, velocity: v0, total: extent.totalVertical, deceleration: deceleration) }
            let perMillimetre = configuration.scroll.speed
            millimetres = { (position($0) / perMillimetre, deceleration.velocity(after: $0, velocity: v0) / perMillimetre) }
        case .touchpad:
            let extent = GlideExtent(speed: speed, deceleration: deceleration, maxDuration: settings.maxDuration)
            (settles, duration) = (extent.settles, extent.duration.seconds)
            position = { deceleration.position(after: $0, velocity: v0) }
            millimetres = { (deceleration.position(after: $0, velocity: speed), deceleration.velocity(after: $0, velocity: speed)) }
        }
        var samples: [Curve.Sample] = []
        samples.reserveCapacity(samplesPerCurve + 1)
        for i in 0...samplesPerCurve {
            let t = i == samplesPerCurve ? duration : duration * Double(i) / Double(samplesPerCurve)
            let travel = millimetres(t)
            samples.append(.init(seconds: t, hiResUnits: position(t), hiResUnitsPerSecond: deceleration.velocity(after: t, velocity: v0),
                                 millimetres: travel.position, millimetresPerSecond: travel.velocity))
        }
        return Curve(releaseSpeed: releaseSpeed, coastSpeed: speed, settles: settles, duration: duration,
                     distanceHiRes: samples.last?.hiResUnits ?? 0, distanceMillimetres: samples.last?.millimetres ?? 0,
                     samples: samples)
    }

    // MARK: [[device]] sections

    /// The enabled `[[device]]` sections whose coasts differ from the top level's in what the
    /// plot draws (deceleration_rate, min_speed, max_speed, max_duration; scroll.speed with the
    /// wheel output), each named as `device[2] (name "Apple")`: the plot does not show them.
    public var sectionsNotShown: [String] {
        func drawn(_ settings: Configuration) -> [Double] {
            let coast = settings.coast
            return [coast.decelerationRate, coast.minSpeed, coast.maxSpeed, coast.maxDuration.seconds]
                + (configuration.output.mode == .wheel ? [settings.scroll.speed] : [])
        }
        return configuration.devices.enumerated().compactMap { index, rule in
            guard rule.enabled, drawn(rule.configuration) != drawn(configuration) else { return nil }
            func id(_ value: UInt16) -> String {
                let hex = String(value, radix: 16)
                return "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
            let matches = (rule.name.map { ["name \"\($0)\""] } ?? []) + (rule.vendor.map { ["vendor \(id($0))"] } ?? [])
                + (rule.product.map { ["product \(id($0))"] } ?? [])
            return "device[\(index + 1)]" + (matches.isEmpty ? "" : " (\(matches.joined(separator: ", ")))")
        }
    }

    // MARK: SVG

    /// The plot as a standalone SVG document: a title naming the settings, a position panel
    /// (detents, with mm of finger travel on the right) above a velocity panel (detents/s, with
    /// mm/s on the right), both over seconds after release, and a legend.
    ///
    /// `source` says where the configuration came from ("built-in defaults" or a path).
    /// Curves are `<polyline class="curve position|velocity">` with `data-release-speed`; each
    /// panel is a `<g id="position-panel|velocity-panel">` whose tick marks carry their values
    /// (`class="tick-mark x|y-left|y-right"`, `data-value`), so a reader can map pixels back.
    public func svg(source: String) -> String {
        var out = SVGWriter()
        let speed = configuration.scroll.speed
        let scale = Scale(configuration)
        let coasting = curves.filter(\.coasts)

        // Axis ranges, with a little headroom so that no curve or end point sits on the frame.
        let longest = coasting.map(\.duration).max() ?? 0
        let timeAxis = Ticks(upTo: (longest > 0 ? longest : configuration.coast.maxDuration.seconds) * 1.02)
        let farthest = coasting.map(scale.distance).max() ?? 0
        let positionAxis = Ticks(upTo: farthest > 0 ? farthest * 1.05 : 1)
        let fastest = coasting.compactMap { $0.samples.first.map(scale.velocity) }.max() ?? 0
        let velocityAxis = Ticks(upTo: fastest > 0 ? fastest * 1.05 : 1)

        // The header's lines, wrapped to the canvas's width: the panels go below them.
        let coast = configuration.coast
        let textRight = Layout.standard.width - Self.textMargin
        // scroll.speed scales the wheel output only: the touchpad's title leaves it out. Broken
        // between settings, not inside one.
        let settings = ["Coasts (output.mode \(configuration.output.mode.rawValue)): deceleration_rate \(Self.plain(coast.decelerationRate)),"]
            + (scale.millimetresPerUnit == nil ? [] : ["scroll.speed \(Self.plain(speed)) units/mm,"])
            + ["max_duration \(Self.plain(coast.maxDuration.milliseconds)) ms"]
        let k = Deceleration(ratePerMillisecond: coast.decelerationRate).decayPerSecond
        let units = scale.millimetresPerUnit.map { "1 detent = 120 hi-res units = \(DecimalText.fixed($0, 2)) mm of finger travel" }
            ?? "the virtual fingers' travel, scaled by libinput and the apps as a finger's"
        let left = Layout.standard.panelLeft
        let header: [(lines: [String], id: String, size: Double, step: Double, attributes: [String: String])] = [
            (Self.wrap(settings, fontSize: 16, width: textRight - left), "title", 16, 20, ["font-weight": "bold"]),
            (Self.wrap("k = \(DecimalText.fixed(k, 3))/s; min_speed \(Self.plain(coast.minSpeed)) mm/s, "
                       + "max_speed \(Self.plain(coast.maxSpeed)) mm/s; \(units)", fontSize: 12, width: textRight - left),
             "subtitle", 12, 16, ["fill": "#444"]),
            (Self.wrap("settings: \(source)", fontSize: 12, width: textRight - left), "source", 12, 16, ["fill": "#444"]),
        ]
        // The standard layout holds one line of each; each more moves the panels down.
        let extraLines = header.map { Double($0.lines.count - 1) * $0.step }.reduce(0, +)
        var layout = Layout.standard.movedDown(by: extraLines)
        // The legend, drawn first for its height: the canvas grows to hold a long one.
        var legend = SVGWriter()
        let legendBottom = drawLegend(layout: layout, scale: scale, into: &legend)
        layout.height = max(layout.height, (legendBottom + Self.textMargin).rounded(.up))

        out.open(width: layout.width, height: layout.height)
        out.element("title", text: "flickd coast plot")
        out.rect(x: 0, y: 0, width: layout.width, height: layout.height, attributes: ["fill": "white"])
        var y = 30.0
        for part in header {
            for (index, line) in part.lines.enumerated() {
                out.text(line, x: left, y: y,
                         attributes: part.attributes.merging(["font-size": Self.plain(part.size), "class": part.id]) { $1 }
                            .merging(index == 0 ? ["id": part.id] : [:]) { $1 })
                y += part.step
            }
        }

        let wheel = scale.millimetresPerUnit != nil
        let panels = [
            Panel(id: "position", title: "Scroll position", top: layout.positionTop, values: positionAxis,
                  leftLabel: wheel ? "position (wheel detents)" : "position (mm of finger travel)",
                  rightLabel: "finger travel equivalent (mm)"),
            Panel(id: "velocity", title: "Velocity", top: layout.velocityTop, values: velocityAxis,
                  leftLabel: wheel ? "velocity (detents/s)" : "velocity (mm/s of finger travel)",
                  rightLabel: "finger speed equivalent (mm/s)"),
        ]
        for panel in panels {
            out.open("g", attributes: ["id": "\(panel.id)-panel"])
            drawAxes(panel, time: timeAxis, millimetresPerUnit: scale.millimetresPerUnit, layout: layout, into: &out)
            for (index, curve) in curves.enumerated() where curve.coasts {
                drawCurve(curve, colour: Self.palette[index % Self.palette.count], panel: panel, time: timeAxis,
                          scale: scale, layout: layout, into: &out)
            }
            out.close("g")
        }

        out.append(legend)
        out.close()
        return out.text
    }

    /// What the vertical axes count: wheel detents with the wheel output (and mm of finger
    /// travel on the right, 120 / scroll.speed mm a detent), the virtual fingers' mm with the
    /// touchpad output, which scroll.speed does not scale (no right axis).
    private struct Scale {
        /// Mm of finger travel per unit of the left axis; nil when the left axis is in mm.
        var millimetresPerUnit: Double?
        /// A sample's position and velocity in the left axis's units.
        var position: (Curve.Sample) -> Double
        var velocity: (Curve.Sample) -> Double
        /// Where a curve ends, in the left axis's units.
        var distance: (Curve) -> Double

        init(_ configuration: Configuration) {
            switch configuration.output.mode {
            case .wheel:
                let detent = CoastPlot.hiResUnitsPerDetent
                millimetresPerUnit = detent / configuration.scroll.speed
                position = { $0.hiResUnits / detent }
                velocity = { $0.hiResUnitsPerSecond / detent }
                distance = { $0.distanceHiRes / detent }
            case .touchpad:
                millimetresPerUnit = nil
                position = \.millimetres
                velocity = \.millimetresPerSecond
                distance = \.distanceMillimetres
            }
        }
    }

    /// One of the two panels: its vertical axis and labels.
    private struct Panel {
        var id: String
        var title: String
        var top: Double
        var values: Ticks
        var leftLabel: String
        var rightLabel: String
    }

    /// Where everything goes, in SVG user units (pixels).
    struct Layout {
        var width = 1000.0
        var height = 760.0
        var panelLeft = 80.0
        var panelRight = 620.0
        var panelHeight = 250.0
        var positionTop = 105.0
        var velocityTop = 445.0
        var legendLeft = 710.0

        static let standard = Layout()

        /// This layout with the panels (and the canvas's bottom) `pixels` lower: below a
        /// header of more lines.
        func movedDown(by pixels: Double) -> Layout {
            var layout = self
            layout.positionTop += pixels
            layout.velocityTop += pixels
            layout.height += pixels
            return layout
        }

        /// The horizontal pixel of `seconds`.
        func x(_ seconds: Double, _ axis: Ticks) -> Double {
            panelLeft + (panelRight - panelLeft) * seconds / axis.upper
        }

        /// The vertical pixel of `value` in a panel whose top is `top`.
        func y(_ value: Double, _ axis: Ticks, top: Double) -> Double {
            top + panelHeight - panelHeight * value / axis.upper
        }
    }

    private func drawAxes(_ panel: Panel, time: Ticks, millimetresPerUnit: Double?, layout: Layout,
                          into out: inout SVGWriter) {
        let top = panel.top, bottom = panel.top + layout.panelHeight
        let left = layout.panelLeft, right = layout.panelRight
        out.text(panel.title, x: left, y: top - 10, attributes: ["font-size": "14", "font-weight": "bold",
                                                                  "class": "panel-title"])
        out.rect(x: left, y: top, width: right - left, height: layout.panelHeight,
                 attributes: ["fill": "none", "stroke": "#888"])

        // Time ticks and grid.
        for value in time.values {
            let x = layout.x(value, time)
            out.line(from: (x, top), to: (x, bottom), attributes: ["stroke": "#e4e4e4"])
            out.line(from: (x, bottom), to: (x, bottom + 5),
                     attributes: ["stroke": "#444", "class": "tick-mark x", "data-value": time.label(value)])
            out.text(time.label(value), x: x, y: bottom + 19,
                     attributes: ["font-size": "12", "text-anchor": "middle", "class": "tick x",
                                  "data-value": time.label(value)])
        }
        out.text("time after release (s)", x: (left + right) / 2, y: bottom + 38,
                 attributes: ["font-size": "12", "text-anchor": "middle", "class": "axis-label x"])

        // Left axis: detents (or detents/s), with a grid.
        for value in panel.values.values {
            let y = layout.y(value, panel.values, top: top)
            if value > 0 { out.line(from: (left, y), to: (right, y), attributes: ["stroke": "#e4e4e4"]) }
            out.line(from: (left - 5, y), to: (left, y),
                     attributes: ["stroke": "#444", "class": "tick-mark y-left", "data-value": panel.values.label(value)])
            out.text(panel.values.label(value), x: left - 8, y: y + 4,
                     attributes: ["font-size": "12", "text-anchor": "end", "class": "tick y-left",
                                  "data-value": panel.values.label(value)])
        }
        let middle = top + layout.panelHeight / 2
        out.text(panel.leftLabel, x: left - 52, y: middle,
                 attributes: ["font-size": "12", "text-anchor": "middle", "class": "axis-label y-left",
                              "transform": "rotate(-90 \(DecimalText.fixed(left - 52, 1)) \(DecimalText.fixed(middle, 1)))"])

        // Right axis: the same scale in mm (or mm/s) of finger travel, ticks of its own; none
        // when the left axis is in mm already.
        if let millimetresPerUnit {
            let millimetres = Ticks(upTo: panel.values.upper * millimetresPerUnit, extend: false, count: 6)
            for value in millimetres.values {
                let y = layout.y(value / millimetresPerUnit, panel.values, top: top)
                out.line(from: (right, y), to: (right + 5, y),
                         attributes: ["stroke": "#444", "class": "tick-mark y-right", "data-value": millimetres.label(value)])
                out.text(millimetres.label(value), x: right + 8, y: y + 4,
                         attributes: ["font-size": "12", "class": "tick y-right", "data-value": millimetres.label(value)])
            }
            out.text(panel.rightLabel, x: right + 58, y: middle,
                     attributes: ["font-size": "12", "text-anchor": "middle", "class": "axis-label y-right",
                                  "transform": "rotate(90 \(DecimalText.fixed(right + 58, 1)) \(DecimalText.fixed(middle, 1)))"])
        }

        // Where max_duration would cut a coast, when it is on the chart.
        let cut = configuration.coast.maxDuration.seconds
        if cut <= time.upper {
            let x = layout.x(cut, time)
            out.line(from: (x, top), to: (x, bottom),
                     attributes: ["stroke": "#b00", "stroke-dasharray": "6 4", "class": "max-duration"])
            // Position curves rise to the top right, velocity curves fall to the bottom right:
            // the label goes in the corner they leave free.
            out.text("max_duration", x: x - 4, y: panel.id == "position" ? bottom - 6 : top + 14,
                     attributes: ["font-size": "11", "fill": "#b00", "text-anchor": "end"])
        }
    }

    private func drawCurve(_ curve: Curve, colour: String, panel: Panel, time: Ticks, scale: Scale, layout: Layout,
                           into out: inout SVGWriter) {
        let isPosition = panel.id == "position"
        let points = curve.samples.map { sample -> (Double, Double) in
            let value = isPosition ? scale.position(sample) : scale.velocity(sample)
            return (layout.x(sample.seconds, time), layout.y(value, panel.values, top: panel.top))
        }
        out.polyline(points, attributes: [
            "class": "curve \(panel.id)", "stroke": colour, "stroke-width": "2", "fill": "none",
            "stroke-linejoin": "round", "data-release-speed": Self.plain(curve.releaseSpeed),
            "data-end": curve.settles ? "settled" : "max_duration",
        ])
        guard let last = points.last else { return }
        if !isPosition && (!curve.settles || configuration.output.mode == .wheel) {
            // The output stops while the model still moves: cut at max_duration, or the wheel
            // output's end, its model 60 units short of rest (60·k units/s).
            out.line(from: last, to: (last.0, layout.y(0, panel.values, top: panel.top)),
                     attributes: ["stroke": colour, "stroke-width": "1.5", "stroke-dasharray": "2 3"])
        }
        out.circle(at: last, radius: 3.5, attributes: ["fill": curve.settles ? colour : "white", "stroke": colour,
                                                       "stroke-width": "1.5", "class": "end \(panel.id)"])
    }

    /// Draws the legend to the right of the panels, its lines wrapped to the canvas's width;
    /// returns the baseline of its last line, for the canvas to hold it.
    private func drawLegend(layout: Layout, scale: Scale, into out: inout SVGWriter) -> Double {
        let coast = configuration.coast
        let left = layout.legendLeft
        let right = layout.width - Self.textMargin
        var y = layout.positionTop
        var bottom = y
        /// Writes `text` wrapped from `x`, each line `step` below the last, continuation lines
        /// `indent` further right; the first line gets `first`'s attributes as well.
        func lines(_ text: String, x: Double, size: Double, step: Double, indent: Double = 0,
                   attributes: [String: String], first: [String: String] = [:]) {
            for (index, line) in Self.wrap(text, fontSize: size, width: right - x - indent).enumerated() {
                if index > 0 { y += step }
                out.text(line, x: x + (index == 0 ? 0 : indent), y: y,
                         attributes: attributes.merging(["font-size": Self.plain(size)]) { $1 }
                            .merging(index == 0 ? first : [:]) { $1 })
                bottom = y
            }
        }
        out.open("g", attributes: ["id": "legend"])
        out.text("Release speed", x: left, y: y - 10, attributes: ["font-size": "14", "font-weight": "bold"])
        y += 8
        for (index, curve) in curves.enumerated() {
            let colour = Self.palette[index % Self.palette.count]
            let name = "\(Self.plain(curve.releaseSpeed)) mm/s"
            let headline: String
            let details: [String]
            if let coastSpeed = curve.coastSpeed {
                out.line(from: (left, y - 4), to: (left + 24, y - 4),
                         attributes: ["stroke": colour, "stroke-width": "2.5"])
                let distance = scale.distance(curve)
                // Detents only where there is a wheel: the touchpad output's glide is finger travel.
                let travel = scale.millimetresPerUnit.map {
                    "\(DecimalText.fixed(distance, 1)) detents (\(DecimalText.fixed(distance * $0, 0)) mm of travel),"
                } ?? "\(DecimalText.fixed(distance, 0)) mm of finger travel,"
                headline = name
                details = (curve.isClamped ? ["clamped to max_speed, \(Self.plain(coastSpeed)) mm/s"] : [])
                    + [travel,
                       curve.settles ? "at rest after \(DecimalText.fixed(curve.duration, 2)) s"
                                     : "cut at \(DecimalText.fixed(curve.duration, 2)) s by max_duration"]
            } else {
                out.line(from: (left, y - 4), to: (left + 24, y - 4),
                         attributes: ["stroke": "#999", "stroke-width": "2.5", "stroke-dasharray": "3 3"])
                headline = "\(name): no coast"
                details = ["slower than min_speed, \(Self.plain(coast.minSpeed)) mm/s"]
            }
            lines(headline, x: left + 32, size: 13, step: 15, attributes: [:],
                  first: ["class": "legend-entry", "data-release-speed": Self.plain(curve.releaseSpeed)])
            for line in details {
                y += 15
                lines(line, x: left + 32, size: 11, step: 15, attributes: ["fill": "#444"])
            }
            y += 24
        }
        y += 4
        let notes = configuration.output.mode == .wheel ? [
            "Each curve is what the wheel output",
            "writes, 60 hi-res units ahead of the",
            "model, and ends where it ends:",
            "● all written (the model 60 units short)",
            "○ cut at max_duration",
            "A new touch, click or key stops a coast",
            "sooner.",
        ] : [
            "Each curve ends where the virtual",
            "touchpad's fingers stop:",
            "● at rest (within 0.05 mm)",
            "○ cut at max_duration",
            "A new touch, click or key stops a coast",
            "sooner.",
        ]
        for note in notes {
            lines(note, x: left, size: 11, step: 15, attributes: ["fill": "#444"])
            y += 15
        }
        // The top level is all the plot draws: a section with coasts of its own is named, not
        // silently left out (`flickd run` gives its devices those).
        let sections = sectionsNotShown
        if !sections.isEmpty {
            y += 8
            for line in ["The top-level settings are drawn;", "not these [[device]] sections'", "coast settings:"] {
                lines(line, x: left, size: 11, step: 15, attributes: ["fill": "#b00"])
                y += 15
            }
            // A long name (a touchpad's "ELAN0678:00 04F3:3195 Touchpad", a vendor and a
            // product) goes on over lines of its own, indented; the first line carries it whole.
            for section in sections {
                lines(section, x: left, size: 11, step: 15, indent: 10, attributes: ["fill": "#b00"],
                      first: ["class": "section-not-shown", "data-section": section])
                y += 15
            }
        }
        out.close("g")
        return bottom
    }

    /// The space between text and the canvas's right and bottom edges, pixels.
    static let textMargin = 10.0

    /// A character's estimated width in ems: wider than DejaVu Sans's average, so that a line
    /// estimated to fit does. (No font metrics here: the viewer's font decides.)
    static let characterWidth = 0.62

    /// How many characters fit `width` pixels at `fontSize` by that estimate (at least one).
    static func characters(fitting width: Double, fontSize: Double) -> Int {
        max(1, Int((width / (fontSize * characterWidth)).rounded(.down)))
    }

    /// `text` broken at spaces into lines that fit `width` pixels at `fontSize`.
    static func wrap(_ text: String, fontSize: Double, width: Double) -> [String] {
        wrap(text.split(separator: " ").map(String.init), fontSize: fontSize, width: width)
    }

    /// `pieces` joined by spaces into lines that fit `width` pixels at `fontSize`, a line
    /// broken only between pieces; a piece too long for a line of its own (a long path) goes on
    /// from where the line is and is cut into lines of as many characters as fit. No line starts
    /// or ends with a space: the one that joined such a piece to a line is dropped where the cut
    /// falls on it or next to it.
    static func wrap(_ pieces: [String], fontSize: Double, width: Double) -> [String] {
        let fit = characters(fitting: width, fontSize: fontSize)
        var lines: [String] = []
        var current = ""
        for piece in pieces {
            if current.isEmpty {
                current = piece
            } else if current.count + 1 + piece.count <= fit || piece.count > fit {
                current += " " + piece
            } else {
                lines.append(current)
                current = piece
            }
            while current.count > fit {
                // A line already full (or one short) before the space: the cut falls on the space
                // or just after it, which would start or end a line.
                var line = current.prefix(fit)
                while line.last == " " { line = line.dropLast() }
                if !line.isEmpty { lines.append(String(line)) }
                current = String(current.dropFirst(fit).drop { $0 == " " })
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// Colours told apart by most colour-blind readers (Okabe and Ito), dark enough on white.
    static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999933"]

    // MARK: Numbers

    /// Evenly spaced axis ticks from 0: steps of 1, 2 or 5 × 10ⁿ, about five of them.
    struct Ticks {
        /// The most digits after the point a tick label has: the smallest step is 10⁻⁹. An
        /// axis shorter than five of them (`flickd plot --speeds 1e-18` with
        /// `coast.min_speed = 0`) ends at one step, its curves flat along 0, rather than asking
        /// for labels of 19 and more decimals (which trapped) or for subnormal steps.
        static let maximumDecimals = 9

        /// The step between ticks.
        var step: Double
        /// The axis's end (the last tick when `extend`).
        var upper: Double
        /// How many digits after the point a tick label needs (0...`maximumDecimals`).
        var decimals: Int

        /// About `count` ticks covering 0...`maximum`; with `extend` the axis ends on the first
        /// tick at or past `maximum` (at least one step), else it ends at `maximum` and the
        /// ticks stay within it.
        init(upTo maximum: Double, extend: Bool = true, count: Double = 5) {
            let maximum = maximum.isFinite && maximum > 0 ? maximum : 1
            var smallestStep = 1.0
            for _ in 0..<Self.maximumDecimals { smallestStep /= 10 }
            let rough = max(maximum / count, smallestStep)
            var magnitude = 1.0
            var decimals = 0
            while magnitude > rough {
                magnitude /= 10
                decimals += 1
            }
            while magnitude * 10 <= rough {
                magnitude *= 10
                decimals = max(0, decimals - 1)
            }
            let multiple = rough / magnitude
            let factor: Double = multiple <= 1 ? 1 : multiple <= 2 ? 2 : multiple <= 5 ? 5 : 10
            if factor == 10 { decimals = max(0, decimals - 1) }
            step = factor * magnitude
            // `rough` is at least the smallest step, which keeps this within the cap already;
            // the bound stays where a rounding could pass it.
            self.decimals = min(decimals, Self.maximumDecimals)
            let extended = max(1, (maximum / step - 1e-9).rounded(.up)) * step
            // Near the largest Double the next tick can be infinite: the axis ends at the maximum.
            upper = extend && extended.isFinite ? extended : maximum
        }

        /// Every tick from 0 to `upper`.
        var values: [Double] {
            let count = Int((upper / step + 1e-9).rounded(.down))
            return (0...count).map { Double($0) * step }
        }

        /// A tick's label.
        func label(_ value: Double) -> String { DecimalText.fixed(value, decimals) }
    }

    /// `value` as a person would write it: `24`, `0.998`, `1.5`.
    static func plain(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

/// Builds an SVG document as text, escaping what XML needs escaped.
struct SVGWriter {
    private(set) var text = ""

    mutating func open(width: Double, height: Double) {
        let w = CoastPlot.plain(width), h = CoastPlot.plain(height)
        text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" "
            + "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
    }

    mutating func close() { text += "</svg>\n" }

    /// Adds what `other` wrote (a part drawn apart, for its size).
    mutating func append(_ other: SVGWriter) { text += other.text }

    mutating func open(_ name: String, attributes: [String: String]) {
        text += "<\(name)\(Self.attributes(attributes))>\n"
    }

    mutating func close(_ name: String) { text += "</\(name)>\n" }

    mutating func element(_ name: String, text content: String) {
        text += "<\(name)>\(Self.escape(content))</\(name)>\n"
    }

    mutating func text(_ content: String, x: Double, y: Double, attributes: [String: String] = [:]) {
        text += "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\"\(Self.attributes(attributes))>"
            + "\(Self.escape(content))</text>\n"
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, attributes: [String: String]) {
        text += "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" "
            + "height=\"\(Self.number(height))\"\(Self.attributes(attributes))/>\n"
    }

    mutating func line(from a: (Double, Double), to b: (Double, Double), attributes: [String: String]) {
        text += "<line x1=\"\(Self.number(a.0))\" y1=\"\(Self.number(a.1))\" x2=\"\(Self.number(b.0))\" "
            + "y2=\"\(Self.number(b.1))\"\(Self.attributes(attributes))/>\n"
    }

    mutating func circle(at centre: (Double, Double), radius: Double, attributes: [String: String]) {
        text += "<circle cx=\"\(Self.number(centre.0))\" cy=\"\(Self.number(centre.1))\" "
            + "r=\"\(Self.number(radius))\"\(Self.attributes(attributes))/>\n"
    }

    mutating func polyline(_ points: [(Double, Double)], attributes: [String: String]) {
        let list = points.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        text += "<polyline points=\"\(list)\"\(Self.attributes(attributes))/>\n"
    }

    /// A coordinate with two decimals: a hundredth of a pixel is finer than any screen.
    static func number(_ value: Double) -> String { DecimalText.fixed(value, 2) }

    /// Attributes in name order, so the output is the same on every run.
    static func attributes(_ attributes: [String: String]) -> String {
        attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\"\(escape($0.value))\"" }.joined()
    }

    /// `text` with `&`, `<`, `>` and `"` escaped, and each character XML 1.0 does not allow
    /// (the C0 controls but tab, newline and carriage return; U+FFFE, U+FFFF) replaced by
    /// U+FFFD: a --config path holding an escape must not make the document not well-formed.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
