import FlickCore
import FlickTools
import FlickLinux

struct PlotCommand: FlickdCommand {
    static let commandDescription = CommandDescription(
        name: "plot",
        abstract: "Draw the coasts the current settings give, as an SVG, to tune them by eye.",
        discussion: """
            Draws two panels over the seconds after the fingers lift: how far the page has \
            scrolled and how fast it is moving. With the touchpad output (output.mode = \
            "touchpad", the default) both are in millimetres (and mm/s) of the virtual fingers' \
            travel, which libinput and the apps scale as they scale the fingers' own: \
            scroll.speed does not apply, and the plot does not depend on it. With the wheel \
            output they are in wheel detents (120 hi-res units each, scaled by scroll.speed) and \
            detents per second, with the millimetres (and mm/s) of finger travel that would \
            scroll as far on the right. There is one curve per \
            release speed in --speeds, computed with the same model and end rule as the daemon \
            uses for the configured output (output.mode, named in the title), from the model's \
            start, within a frame of the release. With the wheel output a curve is what the \
            wheel writes, 60 hi-res units ahead of the model, and ends when it has written the \
            destination rounded, the model still 60 units short of rest (a filled dot), or cut \
            at coast.max_duration (an open dot). With the touchpad output a curve ends when the \
            virtual fingers stop: within 0.05 mm of rest (a filled dot), whatever scroll.speed, \
            or cut at coast.max_duration (an open dot); a glide that would reach the virtual \
            touchpad's margin stops there sooner, which the plot does not show. The daemon \
            writes on its ticks, so its last event may come up to one tick period \
            (1/coast.tick_rate) after a curve's end. A release \
            slower than coast.min_speed does not coast and is listed as "no coast"; one faster \
            than coast.max_speed is clamped to it, and the legend says so.

            The settings are read as `flickd run` reads them: --config FILE, else \
            $XDG_CONFIG_HOME/flickd/config.toml (~/.config/flickd/config.toml), else \
            /etc/flickd/config.toml, else the built-in defaults. The plot draws the top-level \
            settings: an enabled [[device]] section whose own coast.deceleration_rate, \
            coast.min_speed, coast.max_speed or coast.max_duration (or, with the wheel output, \
            scroll.speed) differs is named in the legend and on standard error, not drawn; to \
            see its coasts, put its settings at the top level of a file of their own and plot \
            that. The title names coast.deceleration_rate, scroll.speed (with the wheel output) \
            and coast.max_duration. To compare two \
            settings, plot each with its own --config and --out and open both.

            Typical speeds: a gentle flick releases at 50–150 mm/s, a brisk one at 300–800 mm/s. \
            Speeds are plain decimal numbers up to \(Int(fastestSpeed)) mm/s, the most \
            coast.max_speed may be set to.

            Exit status: 0 when the plot was written; 1 when the configuration has errors or \
            cannot be read, a \
            speed is not a positive decimal number or is above \(Int(fastestSpeed)) mm/s, \
            --speeds gives more than \(maximumSpeeds) speeds, or the SVG cannot be written (to \
            the --out file or to standard output); 64 when the \
            command line cannot be run (an unknown option, a missing value).
            """,
        options: [
            CommandOption(name: "config", valueName: "FILE", help: "Read settings from FILE (TOML), as `flickd run --config FILE` does."),
            CommandOption(name: "out", valueName: "FILE.svg", help: "Write the SVG to FILE instead of standard output (- writes to standard output).", takesDash: true),
            CommandOption(
                name: "speeds", valueName: "MM/S,...",
                help: "Release speeds to draw, in mm/s of finger travel, separated by commas (at most \(maximumSpeeds)). Default: \(defaultSpeeds)."),
        ]
    )

    var config: String?
    var out: String?
    var speeds: String

    /// `--speeds` when not given.
    static let defaultSpeeds = CoastPlot.defaultSpeeds.map { String(Int($0)) }.joined(separator: ",")

    init(_ arguments: ParsedArguments) {
        config = arguments.value("config")
        out = arguments.value("out")
        speeds = arguments.value("speeds") ?? Self.defaultSpeeds
    }

    /// More curves than this make the legend and the colours unreadable.
    static let maximumSpeeds = 8

    /// The fastest speed drawn: the most coast.max_speed may be set to. A faster release
    /// starts no coast any faster, and a speed far beyond it (1e155) overflowed the model.
    static let fastestSpeed = ConfigurationLoader.keys.first { $0.name == "coast.max_speed" }?.range?.upperBound ?? 100_000

    /// `--speeds` as numbers; exits with a message naming the bad item. Each is a plain decimal
    /// number (digits, at most one point): Double() would also take hex (`0x10`), exponents,
    /// signs, `inf` and `nan`.
    private func parsedSpeeds() -> [Double] {
        let items = speeds.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.filter { $0 != " " } }
        let values = items.map { item -> Double in
            let digit: (Character) -> Bool = { ("0"..."9").contains($0) }
            let plain = item.contains(where: digit) && item.filter { $0 == "." }.count <= 1
                && item.allSatisfy { digit($0) || $0 == "." }
            guard plain, let value = Double(item), value.isFinite, value > 0 else {
                fail("--speeds: \"\(item)\" is not a speed; give positive numbers in mm/s separated by commas, e.g. --speeds 50,100,200,400")
            }
            guard value <= Self.fastestSpeed else {
                fail("--speeds: \(item) mm/s is faster than any coast starts: coast.max_speed is at most "
                    + "\(Int(Self.fastestSpeed)) mm/s; give speeds up to that")
            }
            return value
        }
        guard values.count <= Self.maximumSpeeds else {
            fail("--speeds: \(values.count) speeds are too many to tell apart; give at most \(Self.maximumSpeeds)")
        }
        return values
    }

    func run() throws {
        let speeds = parsedSpeeds()
        let path = ConfigurationLocation(explicit: config).resolve()
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: path)
        } catch {
            fail("\(ConfigurationError.lead(for: error)); nothing was drawn:\n\(error)")
        }
        let plot = CoastPlot(configuration: configuration, speeds: speeds)
        let sections = plot.sectionsNotShown
        if !sections.isEmpty {
            // `flickd run` gives these devices coasts the plot does not show: said, not left out silently.
            StandardError.write(QuotedText.controlsEscaped("flickd: note: the plot draws the top-level settings, not the coast "
                + "settings of \(sections.joined(separator: ", ")) (their own in [[device]])") + "\n")
        }
        let svg = plot.svg(source: path ?? "built-in defaults")
        // `--out -`: standard output, as a command line that builds `--out "$file"` may mean.
        guard let out, out != "-" else {
            print(svg, terminator: "")
            return
        }
        do {
            try TextFile.write(svg, to: out)
        } catch {
            fail("cannot write \(out): \(error.reason)")
        }
    }
}
