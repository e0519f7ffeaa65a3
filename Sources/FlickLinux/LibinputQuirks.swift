import CEvdev
import FlickCore
import Glibc

/// The size libinput gives a touch device that reports no resolution, from libinput's own
/// device database: its quirks files (`/usr/share/libinput/*.quirks`, then
/// `/etc/libinput/local-overrides.quirks`).
///
/// A touchpad without a resolution (older Elantech and ALPS PS/2 pads, Apple's USB pads) gets
/// its units per millimetre from a section's `AttrResolutionHint=XxY`, else its size from
/// `AttrSizeHint=WxH` (mm), and only without either libinput's guess of 69 × 50 mm
/// (`DeviceGeometry.assumedTouchpadSize`). flickd must measure millimetres as libinput does:
/// the virtual touchpad's fingers move at the real pad's speed in millimetres, which libinput
/// turns back into scrolling by the scale it gave each pad. With the guess instead of the
/// hint, an Elantech pad's glide ran 1.5–1.6 (horizontal) and 1.9–2.1 (vertical) times the
/// finger's speed in the apps (docs/APPS.md, "Other touchpads, and touchpads without a
/// resolution").
///
/// The files are read as libinput's quirks.c reads them, strictly: a line is cut at its first
/// `#` with the blanks before it; any other leading or trailing blank, a carriage return (a
/// CRLF file), a line out of place (an `Attr` before the section's `Match` lines), an unknown
/// key, a value libinput cannot parse (`MatchVendor=0x05ac`, `MatchBus=USB`,
/// `AttrResolutionHint=31`) or a section without a `Match` or without a property is an error,
/// and one error in any file makes libinput drop every quirk: it runs with none (no hint, no
/// Apple model). flickd does the same (`problems` says why), or its millimetres and its
/// default direction would differ from libinput's.
///
/// A section applies when every `Match` line matches (libinput's rules): `MatchName`,
/// `MatchDMIModalias` and `MatchDeviceTree` are shell globs (fnmatch) on the device's name,
/// the machine's DMI modalias and its device tree's first `compatible` string; `MatchBus`
/// names the bus (`usb`, `bluetooth`, `ps2`, `rmi`, `i2c`, `spi`); `MatchVendor`,
/// `MatchProduct` and `MatchVersion` are `0x` and upper-case hexadecimal ids; `MatchUdevType`
/// is one of `touchpad`, `mouse`, `pointingstick`, `keyboard`, `joystick`, `tablet`,
/// `tablet-pad` (a touchscreen is none of them: no section with it applies to one). Where
/// several sections set a hint, the last one read wins, as in libinput. Only the sections
/// holding a hint or one of Apple's touchpad models are kept (a few of the files' hundreds),
/// read once, when the first touch device without a resolution is described or the first
/// touchpad's default direction is asked (`QuirksOnDemand`): a machine whose pads all report
/// one, on a desktop that says how each pad scrolls, never reads the files.
///
/// The grammar changed between libinput releases (new keys, `MatchUniq`, `MatchProduct` lists,
/// `AttrEventCode`), and flickd cannot cheaply ask which libinput is installed. Its files say:
/// flickd reads them with the grammar of the oldest release it knows (1.22 first) that accepts
/// every file libinput ships (`Grammar.releases`); that grammar then judges the local
/// overrides too. Only when the shipped files use a feature does flickd allow it, so an
/// override written for a newer libinput than the installed one is refused, as libinput refuses
/// it. Rationale: an older grammar errs only where the override uses a feature the installed
/// libinput has but its own files never use (libinput 1.27 and 1.28 read `MatchProduct` lists
/// and ship none, so flickd reads their files as 1.24's and refuses a list in an override);
/// a newer one would accept, on Debian 12's 1.22, overrides that libinput refuses. Either
/// error costs the quirks on one side only, and following the files keeps flickd's choice
/// checkable. libinput 1.30's `$XDG_RUNTIME_DIR/libinput/*.quirks` is not read.
///
/// The models (`ModelAppleTouchpad`, `ModelAppleTouchpadOneButton`) are the touchpads libinput
/// scrolls naturally by default (`naturalScrollingByDefault(for:)`): every Apple pad on USB,
/// Bluetooth or SPI. A compositor that leaves a pad at libinput's default (KWin, for a pad with
/// no group in kcminputrc) scrolls those naturally.
public struct LibinputQuirks: Sendable {
    /// A hint and where it was read
    /// (`"30-vendor-elantech.quirks [Elantech Touchpads] AttrResolutionHint=31x31"`).
    public struct Hint: Sendable, Equatable {
        public typealias Value = ResolutionHint

        public var value: Value
        public var source: String
        /// The units per millimetre `applied(to:kind:)` gave the device's x axis with it (0
        /// before it is applied).
        public var unitsPerMillimetreX: Int32 = 0
    }

    /// What a device is, as the `Match` keys see it.
    public struct Device: Sendable {
        public var name: String
        public var bustype: UInt16
        public var vendor: UInt16
        public var product: UInt16
        public var version: UInt16
        /// `touchpad` for a touchpad (a `MatchUdevType` value). flickd's touchscreens are
        /// `touchscreen`, which no `MatchUdevType` value names: libinput gives a touchscreen
        /// none of its udev types, so a section with `MatchUdevType` never applies to one.
        public var udevType: String

        public init(name: String, bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16, udevType: String) {
            self.name = name
            self.bustype = bustype
            self.vendor = vendor
            self.product = product
            self.version = version
            self.udevType = udevType
        }

        /// The device `description` describes, read as a `kind`.
        public init(_ description: DeviceDescription, kind: DeviceKind) {
            self.init(name: description.name, bustype: description.bustype, vendor: description.vendor,
                      product: description.product, version: description.version,
                      udevType: kind == .touchpad ? "touchpad" : "touchscreen")
        }
    }

    /// One `Match` line, parsed as libinput parses it.
    enum Match: Sendable {
        case name(String)
        case bus(UInt16)
        case vendor(UInt16)
        /// One id, or (libinput 1.27 and later) a `;` list of them.
        case products([UInt16])
        case version(UInt16)
        case dmiModalias(String)
        case deviceTree(String)
        case udevType(String)
        /// libinput 1.26 and later. flickd does not know a device's uniq, so a section with it
        /// never applies (as in libinput for a device without one).
        case uniq(String)
    }

    struct Section: Sendable {
        var matches: [Match]
        var hints: [Hint]
        /// The Apple models it sets: the key, on or off, and where (for the log).
        var models: [(key: String, isOn: Bool, source: String)] = []
    }

    /// The model keys that make libinput scroll a touchpad naturally by default.
    static let naturalModels = ["ModelAppleTouchpad", "ModelAppleTouchpadOneButton"]

    /// The directory of libinput's own files, and the file a system's administrator adds.
    public static let dataDirectory = "/usr/share/libinput"
    public static let overridesFile = "/etc/libinput/local-overrides.quirks"

    let sections: [Section]
    /// `/sys/class/dmi/id/modalias`, and the device tree's first `compatible` string; empty
    /// where the machine has none.
    let dmiModalias: String
    let deviceTree: String

    /// Why libinput refuses these files, one line per file it refuses, naming the file, the
    /// line (counted from 1) and what is wrong (`/etc/libinput/local-overrides.quirks:3:
    /// trailing blank in "MatchName=*Elantech* "; libinput then uses none of its quirks, nor
    /// does flickd`); empty when it reads them all. With any, libinput runs without quirks, and so do these:
    /// no hint and no model applies. For the log, as a warning.
    public let problems: [String]

    /// The libinput release whose grammar read the files (`"1.22"`), chosen by what the files
    /// libinput ships use (`Grammar.releases`).
    public let grammarRelease: String

    /// How the installed libinput measures an axis range when it gives a device without a
    /// resolution one, by the grammar its files chose: libinput 1.25 and later count
    /// `maximum − minimum + 1`, earlier ones `maximum − minimum`. 1.24 and 1.25 read their
    /// files alike; flickd takes such files for 1.25's (Ubuntu 24.04's, where 1.24 shipped
    /// only in short-lived releases), which errs by a unit per millimetre at most, on 1.24.
    /// Without any shipped file, `.difference`, flickd's measure before.
    public let libinputAxisRange: LibinputAxisRange

    /// The files libinput reads, in its order: the shipped `*.quirks` (glob's C-locale sort,
    /// libinput's versionsort for every shipped name), then the local overrides.
    static func systemPaths() -> [String] {
        var paths: [String] = []
        var found = glob_t()
        if glob(dataDirectory + "/*.quirks", 0, nil, &found) == 0 {
            for index in 0..<Int(found.gl_pathc) {
                if let entry = found.gl_pathv[index] { paths.append(String(cString: entry)) }
            }
        }
        globfree(&found)
        paths.append(overridesFile)
        return paths
    }

    /// The quirks of this machine's libinput. Only a file that does not exist (ENOENT: no
    /// override file) counts as absent; one that cannot be read is a problem, as in libinput.
    public static func system() -> LibinputQuirks {
        let paths = systemPaths()
        let compatible = (try? TextFile.read("/sys/firmware/devicetree/base/compatible")) ?? ""
        return reading(paths,
                       dmiModalias: ((try? TextFile.read("/sys/class/dmi/id/modalias")) ?? "").trimmingWhitespace,
                       deviceTree: String(compatible.split(separator: "\0", omittingEmptySubsequences: true).first ?? ""))
    }

    /// The quirks of the files at `paths` (in libinput's order), each read with `read`.
    ///
    /// libinput's `parse_file` takes a file that does not exist (ENOENT) for none: the override
    /// file is optional. Any other failure (EACCES on a local-overrides.quirks of mode 0600, a
    /// directory named `*.quirks`, which libinput opens and then reads as an empty file) makes
    /// it refuse every quirk: here a problem, which leaves no hint and no model in force.
    static func reading(_ paths: [String], dmiModalias: String = "", deviceTree: String = "",
                        with read: (String) -> Result<String, SystemError> = { path in
                            Result { () throws(SystemError) in try TextFile.read(path) }
                        }) -> LibinputQuirks {
        var files: [(path: String, text: String)] = []
        var unreadable: [QuirksProblem] = []
        for path in paths {
            switch read(path) {
            case .success(let text): files.append((path, text))
            case .failure(let error) where error.errno == ENOENT: continue
            case .failure(let error):
                let reason = error.errno == EISDIR ? "is a directory, which libinput reads as an empty file"
                                                   : "cannot be read (\(error.reason))"
                unreadable.append(QuirksProblem(path: path, line: nil, reason: reason))
            }
        }
        return LibinputQuirks(files: files, unreadable: unreadable, dmiModalias: dmiModalias, deviceTree: deviceTree)
    }

    /// Quirks read from `files` (path and text, in the order libinput reads them: its data
    /// directory's files, then `overridesFile`). A file at `overridesFile` is the
    /// administrator's; every other one is taken as shipped with libinput, and chooses the
    /// grammar.
    public init(files: [(path: String, text: String)], dmiModalias: String = "", deviceTree: String = "") {
        self.init(files: files, unreadable: [], dmiModalias: dmiModalias, deviceTree: deviceTree)
    }

    /// Quirks read from `files`, where the files `unreadable` could not be read (`reading`):
    /// with any, libinput uses no quirk, nor do these.
    init(files: [(path: String, text: String)], unreadable: [QuirksProblem], dmiModalias: String, deviceTree: String) {
        self.dmiModalias = dmiModalias
        self.deviceTree = deviceTree
        let shipped = files.filter { $0.path != Self.overridesFile }
        typealias Read = Result<[Section], QuirksProblem>
        func read(with grammar: Grammar, toFirstError: Bool) -> [Read] {
            var read: [Read] = []
            for file in shipped {
                let result = QuirksParser.parse(file.path, file.text, grammar)
                read.append(result)
                if toFirstError, case .failure = result { break }
            }
            return read
        }
        func refused(_ read: [Read]) -> Int { read.count { if case .failure = $0 { true } else { false } } }
        // The oldest release whose grammar takes every shipped file: the installed libinput is
        // that one or a later one that reads its files alike. A later one that only dropped a
        // key takes them too: its files are known by that key's absence (1.31's files never
        // set ModelPressurePad, 1.23 to 1.30's always do).
        let shippedKeys = Set(shipped.flatMap { QuirksParser.propertyKeys($0.text) })
        var chosen: (grammar: Grammar, read: [Read])?
        for candidate in Grammar.releases {
            if let key = candidate.alwaysShippedKey, !shippedKeys.contains(key) { continue }
            let files = read(with: candidate, toFirstError: true)
            if files.count == shipped.count && refused(files) == 0 {
                chosen = (candidate, files)
                break
            }
        }
        if chosen == nil {
            // None takes them all. A libinput newer than flickd knows: the newest grammar, with
            // the keys its shipped files use, so that a new key alone does not cost every quirk.
            // Or a file copied in from another libinput (one written for a newer one, on an
            // older): the grammar that takes the most files, so that the problems name the odd
            // ones out, not the rest (the oldest such grammar, where several take as many).
            var newest = Grammar.releases[Grammar.releases.count - 1]
            newest.release += " and the keys of the installed files"
            for file in shipped { newest.keys.formUnion(QuirksParser.propertyKeys(file.text)) }
            for candidate in Grammar.releases + [newest] {
                let files = read(with: candidate, toFirstError: false)
                if chosen.map({ refused(files) < refused($0.read) }) ?? true { chosen = (candidate, files) }
            }
        }
        let grammar = chosen?.grammar ?? Grammar.releases[0]
        let shippedRead = chosen?.read ?? []
        var sections: [Section] = []
        var problems: [String] = []
        var next = 0
        for file in files {
            let result: Read
            if file.path != Self.overridesFile, next < shippedRead.count {
                // Already read with this grammar while choosing it.
                result = shippedRead[next]
                next += 1
            } else {
                result = QuirksParser.parse(file.path, file.text, grammar)
            }
            switch result {
            case .success(let read): sections += read
            case .failure(var problem):
                problem.release = grammar.release
                problems.append(problem.description)
            }
        }
        if shipped.isEmpty && !files.isEmpty {
            problems.append(QuirksProblem(path: Self.dataDirectory, line: nil, reason: "no .quirks files").description)
        }
        problems += unreadable.map(\.description)
        self.problems = problems
        self.sections = problems.isEmpty ? sections : []
        self.grammarRelease = grammar.release
        self.libinputAxisRange = shipped.isEmpty ? .difference : grammar.libinputAxisRange
    }

    /// The hint libinput uses for `device`: a resolution hint wins over a size hint (libinput
    /// reads the size only without one); nil when neither applies.
    public func hint(for device: Device) -> Hint? {
        var resolution: Hint?
        var size: Hint?
        for section in sections where section.matches.allSatisfy({ matches($0, device) }) {
            for hint in section.hints {
                if case .resolution = hint.value { resolution = hint } else { size = hint }
            }
        }
        return resolution ?? size
    }

    /// Whether libinput scrolls `device` naturally by default, as its
    /// `tp_scroll_config_natural_get_default` decides: a touchpad one of whose Apple models is
    /// on, each model as the last section setting it says. The model's line
    /// (`"50-system-apple.quirks [Apple Touchpads USB] ModelAppleTouchpad=1"`); nil: off.
    public func naturalScrollingByDefault(for device: Device) -> String? {
        guard device.udevType == "touchpad" else { return nil }
        var models: [String: (isOn: Bool, source: String)] = [:]
        for section in sections where !section.models.isEmpty && section.matches.allSatisfy({ matches($0, device) }) {
            for model in section.models { models[model.key] = (model.isOn, model.source) }
        }
        return Self.naturalModels.lazy.compactMap { models[$0] }.first { $0.isOn }?.source
    }

    /// `description` with the resolution libinput gives it, when the device reports none on
    /// x and y (MT and single-touch axes alike) and a hint applies; the hint used, or nil when
    /// none does. A device without a resolution learns how this libinput measures its ranges
    /// (`DeviceDescription.libinputAxisRange`), for a size hint and for the 69 × 50 mm guess
    /// `DeviceGeometry` makes where no hint applies.
    public func applied(to description: DeviceDescription, kind: DeviceKind) -> (DeviceDescription, Hint?) {
        guard ResolutionHint.couldApply(to: description) else { return (description, nil) }
        var description = description
        description.libinputAxisRange = libinputAxisRange
        guard var hint = hint(for: Device(description, kind: kind)), let result = hint.value.applied(to: description) else { return (description, nil) }
        hint.unitsPerMillimetreX = (result.absoluteAxes[EventCode.absMTPositionX] ?? result.absoluteAxes[EventCode.absX])?.resolution ?? 0
        return (result, hint)
    }

    /// Bus names of `MatchBus`, as the kernel numbers them (linux/input.h).
    static let buses: [String: UInt16] = ["usb": 0x03, "bluetooth": 0x05, "ps2": 0x11, "i2c": 0x18, "spi": 0x1C, "rmi": 0x1D]

    /// Whether `match` holds for `device`, by libinput's rules (the size hints' and the
    /// pressure quirks' sections alike).
    func matches(_ match: Match, _ device: Device) -> Bool {
        switch match {
        case .name(let glob): fnmatch(glob, device.name, 0) == 0
        case .dmiModalias(let glob): !dmiModalias.isEmpty && fnmatch(glob, dmiModalias, 0) == 0
        case .deviceTree(let glob): !deviceTree.isEmpty && fnmatch(glob, deviceTree, 0) == 0
        case .bus(let bus): bus == device.bustype
        case .vendor(let id): id == device.vendor
        case .products(let ids): ids.contains(device.product)
        case .version(let id): id == device.version
        case .udevType(let type): type == device.udevType
        case .uniq: false
        }
    }
}

/// What a libinput release's quirks.c accepts, where releases differ.
struct Grammar: Sendable {
    /// The release, as the log names it (`"1.22"`).
    var release: String
    /// The `Model` and `Attr` keys it knows.
    var keys: Set<String>
    /// `MatchUniq` (1.26).
    var matchesUniq = false
    /// `MatchProduct=0x0001;0x0002` (1.27).
    var productLists = false
    /// `AttrEventCode`/`AttrInputProp` values with a `+` or `-` before each code (1.23, which
    /// replaced `AttrEventCodeDisable`/`Enable` and `AttrInputPropDisable`/`Enable`).
    var signedCodes = false
    /// `INPUT_PROP_PRESSUREPAD` named in `AttrInputProp` whatever libevdev knows (1.31, which
    /// sets it in place of `ModelPressurePad`); before, only a libevdev that knows the name
    /// (1.13.6 and later) takes it.
    var namesPressurePadProperty = false
    /// A key that every set of files this release ships uses and the next release no longer
    /// knows (1.30's `ModelPressurePad`): files this grammar takes without it are the next one's.
    var alwaysShippedKey: String?
    /// How the release measures an axis range for a size (`LibinputAxisRange`): `.inclusive`
    /// from 1.25, and for the 1.24 grammar, which 1.25 shares.
    var libinputAxisRange = LibinputAxisRange.difference

    static let models122: Set<String> = [
        "ModelALPSSerialTouchpad", "ModelAppleTouchpad", "ModelAppleTouchpadOneButton", "ModelBouncingKeys",
        "ModelChromebook", "ModelClevoW740SU", "ModelDellCanvasTotem", "ModelHPPavilionDM4Touchpad",
        "ModelHPZBookStudioG3", "ModelInvertHorizontalScrolling", "ModelLenovoScrollPoint", "ModelLenovoT450Touchpad",
        "ModelLenovoX1Gen6Touchpad", "ModelLenovoX230", "ModelSynapticsSerialTouchpad", "ModelSystem76Bonobo",
        "ModelSystem76Galago", "ModelSystem76Kudu", "ModelTabletModeNoSuspend", "ModelTabletModeSwitchUnreliable",
        "ModelTouchpadVisibleMarker", "ModelTrackball", "ModelWacomTouchpad",
    ]
    static let attributes122: Set<String> = [
        "AttrSizeHint", "AttrTouchSizeRange", "AttrPalmSizeThreshold", "AttrLidSwitchReliability",
        "AttrKeyboardIntegration", "AttrPointingStickIntegration", "AttrTPKComboLayout", "AttrPressureRange",
        "AttrPalmPressureThreshold", "AttrResolutionHint", "AttrTrackpointMultiplier", "AttrThumbPressureThreshold",
        "AttrUseVelocityAveraging", "AttrTabletSmoothing", "AttrThumbSizeThreshold", "AttrMscTimestamp",
        "AttrEventCodeDisable", "AttrEventCodeEnable", "AttrInputPropDisable", "AttrInputPropEnable",
    ]

    /// The releases whose quirks grammar differs from the one before, oldest first, from
    /// libinput's git history (src/quirks.c, src/util-prop-parsers.c): 1.25 reads as 1.24,
    /// 1.28 as 1.27. 1.22 is Debian 12's. 1.31 only takes away (`ModelPressurePad`) and names
    /// INPUT_PROP_PRESSUREPAD itself: its files are told from 1.30's by `alwaysShippedKey`.
    static let releases: [Grammar] = {
        let r122 = Grammar(release: "1.22", keys: models122.union(attributes122))
        var r123 = r122
        r123.release = "1.23"
        r123.keys.subtract(["AttrEventCodeDisable", "AttrEventCodeEnable", "AttrInputPropDisable", "AttrInputPropEnable"])
        r123.keys.formUnion(["AttrEventCode", "AttrInputProp", "ModelPressurePad"])
        r123.signedCodes = true
        var r124 = r123
        r124.release = "1.24"
        r124.keys.insert("ModelTouchpadPhantomClicks")
        r124.libinputAxisRange = .inclusive
        var r126 = r124
        r126.release = "1.26"
        r126.matchesUniq = true
        var r127 = r126
        r127.release = "1.27"
        r127.productLists = true
        var r129 = r127
        r129.release = "1.29"
        r129.keys.formUnion(["AttrIsVirtual", "ModelLogitechMXMaster3"])
        var r130 = r129
        r130.release = "1.30"
        r130.keys.remove("ModelLogitechMXMaster3")
        r130.keys.insert("ModelScrollOnMiddleClick")
        var r131 = r130
        r130.alwaysShippedKey = "ModelPressurePad"
        r131.release = "1.31"
        r131.keys.remove("ModelPressurePad")
        r131.namesPressurePadProperty = true
        return [r122, r123, r124, r126, r127, r129, r130, r131]
    }()
}

/// Why libinput refuses a file: where, and what it found.
struct QuirksProblem: Error, CustomStringConvertible {
    var path: String
    /// The line in an editor's numbering (libinput's own messages count from 0); nil for the
    /// whole file.
    var line: Int?
    var reason: String
    /// The libinput release whose rules refused it (`LibinputQuirks.grammarRelease`): flickd
    /// infers it from the files libinput ships, so the message says by which.
    var release: String?

    var description: String {
        let rules = release.map { " (read by the rules of libinput \($0), as this machine's own quirks files say)" } ?? ""
        return "\(path)\(line.map { ":\($0)" } ?? ""): \(reason)\(rules); libinput then uses none of its quirks, nor does flickd"
    }
}

/// libinput's quirks.c `parse_file` and the value parsers it calls (util-prop-parsers.c,
/// util-strings.h), rule for rule: what libinput refuses, this refuses, at the same line. Lines
/// are found in the bytes as `fgets` finds them; only the sections that hold a hint or an Apple
/// model are kept (the files have hundreds of sections, of which a few matter).
enum QuirksParser {
    private static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// libinput reads lines with `fgets` into 512 bytes: a longer line is read as several.
    static let lineBuffer = 512

    /// Where the parser is in a section (quirks.c's `enum state`).
    private enum State { case section, match, matchOrValue, valueOrSection }

    /// The sections of one file, or the first error in it (libinput stops there).
    static func parse(_ path: String, _ text: String, _ grammar: Grammar) -> Result<[LibinputQuirks.Section], QuirksProblem> {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let bytes = Array(text.utf8)
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func starts(_ range: Range<Int>, with prefix: StaticString) -> Bool {
            range.count >= prefix.utf8CodeUnitCount
                && bytes[range.lowerBound..<range.lowerBound + prefix.utf8CodeUnitCount].elementsEqual(
                    UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
        }
        var sections: [LibinputQuirks.Section] = []
        var state = State.section
        // The open section: its name, and what it holds so far (ranges in `bytes`).
        var name: Range<Int>?
        var hasMatch = false
        var hasProperty = false
        var matches: [(key: Range<Int>, match: LibinputQuirks.Match)] = []
        var hints: [(hint: ResolutionHint, line: Range<Int>)] = []
        var models: [(key: String, isOn: Bool, line: Range<Int>)] = []
        func close() {
            if let name, !hints.isEmpty || !models.isEmpty {
                let label = string(name)
                sections.append(.init(matches: matches.map(\.match),
                                      hints: hints.map { .init(value: $0.hint, source: "\(file) [\(label)] \(string($0.line))") },
                                      models: models.map { ($0.key, $0.isOn, "\(file) [\(label)] \(string($0.line))") }))
            }
            (hasMatch, hasProperty, matches, hints, models) = (false, false, [], [], [])
        }
        var lineNumber = 1
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, end - start < lineBuffer - 1 {
                end += 1
                if bytes[end - 1] == newline { break }
            }
            let number = lineNumber
            lineNumber += bytes[start..<end].last == newline ? 1 : 0
            // C reads the line up to its first NUL.
            let low = start
            var high = bytes[start..<end].firstIndex(of: 0) ?? end
            start = end
            if let hash = bytes[low..<high].firstIndex(of: UInt8(ascii: "#")) {
                high = hash
                while high > low, bytes[high - 1] == space || bytes[high - 1] == tab { high -= 1 }
            } else if let lineEnd = bytes[low..<high].firstIndex(of: newline) {
                high = lineEnd
            }
            guard high > low else { continue }
            let line = low..<high
            func problem(_ reason: String) -> Result<[LibinputQuirks.Section], QuirksProblem> {
                let crlf = bytes[high - 1] == 13 ? " (a carriage return: libinput reads only Unix line ends, not CRLF)" : ""
                return .failure(QuirksProblem(path: path, line: number, reason: "\(reason) \(QuotedText.quoted(string(line)))\(crlf)"))
            }
            let last = bytes[high - 1]
            if last == space || last == tab { return problem("trailing blank in") }
            let first = bytes[low]
            if first == space || first == tab { return problem("leading blank in") }
            if first == UInt8(ascii: "[") {
                guard last == UInt8(ascii: "]") else { return problem("no closing ] in") }
                guard state == .section || state == .valueOrSection else { return problem("a section that has no Match line and property yet, ended by") }
                if name != nil, !hasMatch || !hasProperty { return problem("the section before is empty:") }
                close()
                name = low + 1..<high - 1
                state = .match
                continue
            }
            guard first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return problem("a line that is not [Section] or Key=value:") }
            let isMatch = starts(line, with: "Match")
            switch state {
            case .section: return problem("a line before any [Section]:")
            case .match:
                guard isMatch else { return problem("the section's Match lines must come first, not") }
                state = .matchOrValue
            case .matchOrValue:
                if !isMatch { state = .valueOrSection }
            case .valueOrSection:
                if isMatch { return problem("a Match line after the section's properties:") }
            }
            // libinput splits at every '=' and drops empty pieces: "Key==value" is "Key=value".
            var pieces = (count: 0, key: low..<low, value: low..<low)
            var pieceStart = low
            for index in low...high where index == high || bytes[index] == UInt8(ascii: "=") {
                if index > pieceStart {
                    pieces.count += 1
                    if pieces.count == 1 { pieces.key = pieceStart..<index } else { pieces.value = pieceStart..<index }
                }
                pieceStart = index + 1
            }
            guard pieces.count == 2 else { return problem("not one Key=value in") }
            let (key, value) = (pieces.key, pieces.value)
            guard bytes[value.lowerBound] != UInt8(ascii: "\""), bytes[value.lowerBound] != UInt8(ascii: "'") else {
                return problem("a quoted value in")
            }
            if starts(key, with: "Match") {
                guard !matches.contains(where: { bytes[$0.key].elementsEqual(bytes[key]) }) else {
                    return problem("a second \(string(key)) in the section:")
                }
                guard let match = parseMatch(bytes[key], bytes[value], grammar) else { return problem("libinput cannot parse") }
                matches.append((key, match))
                hasMatch = true
            } else if starts(key, with: "Model") {
                let keyText = string(key)
                guard grammar.keys.contains(keyText) else { return problem("an unknown key in") }
                let isOn = bytes[value].elementsEqual([UInt8(ascii: "1")])
                guard isOn || bytes[value].elementsEqual([UInt8(ascii: "0")]) else { return problem("a model that is neither 1 nor 0:") }
                if LibinputQuirks.naturalModels.contains(keyText) { models.append((keyText, isOn, line)) }
                hasProperty = true
            } else if starts(key, with: "Attr") {
                let keyText = string(key)
                guard grammar.keys.contains(keyText) else { return problem("an unknown key in") }
                guard let hint = parseAttribute(keyText, string(value), grammar) else { return problem("libinput cannot parse") }
                if let hint { hints.append((hint, line)) }
                hasProperty = true
            } else {
                return problem("a key that is not Match…, Model… or Attr… in")
            }
        }
        guard let name else { return .failure(QuirksProblem(path: path, line: nil, reason: "no [Section] in the file")) }
        guard hasMatch && hasProperty else {
            return .failure(QuirksProblem(path: path, line: lineNumber - (bytes.last == newline ? 1 : 0),
                                          reason: "the last section, [\(string(name))], has no \(hasMatch ? "property" : "Match line")"))
        }
        close()
        return .success(sections)
    }

    /// The `Model` and `Attr` keys `text` uses, for a libinput newer than flickd knows.
    static func propertyKeys(_ text: String) -> Set<String> {
        var keys: Set<String> = []
        for line in text.utf8.split(separator: newline) where line.starts(with: "Model".utf8) || line.starts(with: "Attr".utf8) {
            if let key = line.split(separator: UInt8(ascii: "=")).first { keys.insert(String(decoding: key, as: UTF8.self)) }
        }
        return keys
    }

    /// A `Match` line as quirks.c `parse_match` reads it; nil where libinput fails.
    static func parseMatch(_ key: ArraySlice<UInt8>, _ value: ArraySlice<UInt8>, _ grammar: Grammar) -> LibinputQuirks.Match? {
        func text() -> String { String(decoding: value, as: UTF8.self) }
        switch String(decoding: key, as: UTF8.self) {
        case "MatchName": return .name(text())
        case "MatchBus": return LibinputQuirks.buses[text()].map { .bus($0) }
        case "MatchVendor": return hexadecimalId(value).map { .vendor($0) }
        case "MatchProduct":
            guard grammar.productLists else { return hexadecimalId(value).map { .products([$0]) } }
            let ids = value.split(separator: UInt8(ascii: ";")).map(hexadecimalId)
            guard !ids.isEmpty, !ids.contains(nil) else { return nil }
            return .products(ids.compactMap { $0 })
        case "MatchVersion": return hexadecimalId(value).map { .version($0) }
        case "MatchDMIModalias": return value.starts(with: "dmi:".utf8) ? .dmiModalias(text()) : nil
        case "MatchUdevType":
            let types: Set<String> = ["touchpad", "mouse", "pointingstick", "keyboard", "joystick", "tablet", "tablet-pad"]
            return types.contains(text()) ? .udevType(text()) : nil
        case "MatchDeviceTree": return .deviceTree(text())
        case "MatchUniq": return grammar.matchesUniq ? .uniq(text()) : nil
        default: return nil
        }
    }

    /// quirks.c `parse_hex`: `0x`, then upper-case hexadecimal digits, at most 0xFFFF.
    static func hexadecimalId(_ text: ArraySlice<UInt8>) -> UInt16? {
        let digits = text.dropFirst(2)
        guard text.starts(with: "0x".utf8), !digits.isEmpty,
              digits.allSatisfy({ (48...57).contains($0) || (65...70).contains($0) }) else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            value = value * 16 + UInt32(digit <= 57 ? digit - 48 : digit - 55)
            if value > 0xFFFF { return nil }
        }
        return UInt16(value)
    }

    /// An `Attr` value as quirks.c `parse_attr` checks it: nil where libinput fails; otherwise
    /// the hint it holds (`AttrResolutionHint`, `AttrSizeHint`), or `.some(nil)` for a valid
    /// value of another key.
    static func parseAttribute(_ key: String, _ value: String, _ grammar: Grammar) -> ResolutionHint?? {
        func valid(_ ok: Bool) -> ResolutionHint?? { ok ? .some(nil) : nil }
        switch key {
        case "AttrResolutionHint", "AttrSizeHint":
            guard let (x, y) = scanDimensions(value), x > 0, y > 0 else { return nil }
            return .some(key == "AttrResolutionHint" ? .resolution(x: x, y: y) : .size(width: x, height: y))
        case "AttrTouchSizeRange", "AttrPressureRange":
            if value == "none" { return valid(true) }
            guard let (high, low) = scanRange(value) else { return nil }
            return valid(low < high)
        case "AttrPalmSizeThreshold", "AttrPalmPressureThreshold", "AttrThumbPressureThreshold", "AttrThumbSizeThreshold":
            return valid(unsignedNumber(value, radix: 10) != nil)
        case "AttrLidSwitchReliability": return valid(["reliable", "write_open", "unreliable"].contains(value))
        case "AttrKeyboardIntegration", "AttrPointingStickIntegration": return valid(value == "internal" || value == "external")
        case "AttrTPKComboLayout": return valid(value == "below")
        case "AttrMscTimestamp": return valid(value == "watch")
        case "AttrTrackpointMultiplier": return valid(isDecimal(value))
        case "AttrUseVelocityAveraging", "AttrTabletSmoothing", "AttrIsVirtual": return valid(value == "1" || value == "0")
        case "AttrEventCodeDisable", "AttrEventCodeEnable", "AttrEventCode": return valid(eventCodes(value, signed: grammar.signedCodes))
        case "AttrInputPropDisable", "AttrInputPropEnable", "AttrInputProp":
            return valid(inputProperties(value, signed: grammar.signedCodes, namesPressurePad: grammar.namesPressurePadProperty))
        default:
            // A key known only from a newer libinput's files: its value cannot be checked.
            return valid(true)
        }
    }

    /// `sscanf(value, "%dx%d")`: blanks may lead each number, anything may follow the second.
    static func scanDimensions(_ value: String) -> (Int32, Int32)? { scanPair(value, separator: UInt8(ascii: "x")) }

    /// `sscanf(value, "%d:%d")`.
    static func scanRange(_ value: String) -> (Int32, Int32)? { scanPair(value, separator: UInt8(ascii: ":")) }

    private static func scanPair(_ value: String, separator: UInt8) -> (Int32, Int32)? {
        let bytes = Array(value.utf8)
        var index = 0
        guard let first = scanInteger(bytes, &index), index < bytes.count, bytes[index] == separator else { return nil }
        index += 1
        guard let second = scanInteger(bytes, &index) else { return nil }
        return (first, second)
    }

    /// scanf's `%d`: C blanks, a sign, decimal digits (the value as glibc stores it in an int).
    private static func scanInteger(_ bytes: [UInt8], _ index: inout Int) -> Int32? {
        while index < bytes.count, isCSpace(bytes[index]) { index += 1 }
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        let digitsStart = index
        var magnitude: Int64 = 0
        while index < bytes.count, (48...57).contains(bytes[index]) {
            magnitude = magnitude > Int64.max / 10 ? Int64.max : min(Int64.max - 9, magnitude) * 10 + Int64(bytes[index] - 48)
            index += 1
        }
        guard index > digitsStart else { return nil }
        return Int32(truncatingIfNeeded: negative ? -magnitude : magnitude)
    }

    private static func isCSpace(_ byte: UInt8) -> Bool { byte == 32 || (9...13).contains(byte) }

    /// libinput's `safe_atou_base`: strtoul's whole text (C blanks and a sign may lead; a
    /// negative value other than 0 fails; base 16 takes a `0x`).
    static func unsignedNumber(_ text: String, radix: Int) -> UInt32? {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, isCSpace(first) { bytes = bytes.dropFirst() }
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        if radix == 16, bytes.count > 2, bytes.first == 48, bytes.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x") {
            bytes = bytes.dropFirst(2)
        }
        guard !bytes.isEmpty, let value = UInt64(String(decoding: bytes, as: UTF8.self), radix: radix) else { return nil }
        if negative { return value == 0 ? 0 : nil }
        return UInt32(truncatingIfNeeded: value)
    }

    /// libinput's `safe_atod`: digits, `+`, `-` and `.` only, a whole C number, 0 or normal.
    static func isDecimal(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 }) else { return false }
        return text.withCString { start in
            var end: UnsafeMutablePointer<CChar>?
            errno = 0
            let value = strtod(start, &end)
            guard errno == 0, let end, end != UnsafeMutablePointer(mutating: start), end.pointee == 0 else { return false }
            return value == 0 || value.isNormal
        }
    }

    /// util-prop-parsers.c `parse_evcode_property`: 1 to 32 `;`-separated event types
    /// (`EV_ABS`), codes (`BTN_RIGHT`, `KEY_…`, `ABS_…`, `REL_…`, `SW_…`) or `EV_KEY:0x110`,
    /// named as libevdev names them; since 1.23 each after a `+` or `-`.
    static func eventCodes(_ value: String, signed: Bool) -> Bool {
        items(value, signed: signed) { item in
            guard let colon = item.firstIndex(of: ":") else {
                if item.hasPrefix("EV_") { return libevdev_event_type_from_name(String(item)) != -1 }
                let types: [(String, UInt32)] = [("KEY_", 1), ("BTN_", 1), ("ABS_", 3), ("REL_", 2), ("SW_", 5)]
                guard let type = types.first(where: { item.hasPrefix($0.0) })?.1 else { return false }
                return libevdev_event_code_from_name(type, String(item)) != -1
            }
            // sscanf("%12[A-Z_]:%x%n") consuming the whole item.
            let name = item[..<colon]
            guard (1...12).contains(name.utf8.count), name.utf8.allSatisfy({ (65...90).contains($0) || $0 == 95 }) else { return false }
            let type = libevdev_event_type_from_name(String(name))
            guard type != -1, let code = scanHexadecimal(item[item.index(after: colon)...]) else { return false }
            return code >= 0 && code <= Int64(libevdev_event_type_get_max(UInt32(type)))
        }
    }

    /// Whether `value` is 1 to 32 `;`-separated items, each (since 1.23, `signed`) after a `+`
    /// or `-`, that `accepts` takes (without the sign): the lists `eventCodes` and
    /// `inputProperties` read.
    private static func items(_ value: String, signed: Bool, _ accepts: (Substring) -> Bool) -> Bool {
        let items = value.split(separator: ";")
        guard !items.isEmpty, items.count <= 32 else { return false }
        return items.allSatisfy { item in
            var item = item
            if signed {
                guard let sign = item.first, sign == "+" || sign == "-" else { return false }
                item = item.dropFirst()
            }
            return accepts(item)
        }
    }

    /// scanf's `%x` over the whole text: C blanks, a sign, an optional `0x`, hexadecimal digits.
    private static func scanHexadecimal(_ text: Substring) -> Int64? {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, isCSpace(first) { bytes = bytes.dropFirst() }
        var negative = false
        if let sign = bytes.first, sign == 43 || sign == 45 {
            negative = sign == 45
            bytes = bytes.dropFirst()
        }
        if bytes.count > 2, bytes.first == 48, bytes.dropFirst().first.map({ $0 | 0x20 }) == 120 { bytes = bytes.dropFirst(2) }
        guard !bytes.isEmpty, bytes.count <= 8, let value = Int64(String(decoding: bytes, as: UTF8.self), radix: 16) else { return nil }
        return Int64(Int32(truncatingIfNeeded: negative ? -value : value))
    }

    /// util-prop-parsers.c `parse_input_prop_property`: 1 to 32 `;`-separated properties,
    /// hexadecimal (at most 0x1F) or named (`INPUT_PROP_BUTTONPAD`) as libevdev names them;
    /// since 1.23 each after a `+` or `-`. `INPUT_PROP_PRESSUREPAD` is named by libevdev 1.13.6
    /// and later, and by libinput itself from 1.31 (`namesPressurePad`): an older libinput on
    /// an older libevdev refuses it.
    static func inputProperties(_ value: String, signed: Bool, namesPressurePad: Bool = false) -> Bool {
        items(value, signed: signed) { item in
            if let number = unsignedNumber(String(item), radix: 16) { return number <= 0x1F }
            return libevdev_property_from_name(String(item)) != -1 || (namesPressurePad && item == "INPUT_PROP_PRESSUREPAD")
        }
    }
}

/// libinput's quirks, read the first time a device without a resolution asks for them, or a
/// touchpad's default direction is asked (the desktop did not say it). Nearly every touch
/// device reports its resolution, so a daemon that only sees such devices, on a desktop that
/// answers for them, never reads the files (about 40 files and 40 kB of text on Debian 12).
public final class QuirksOnDemand {
    private let load: () -> LibinputQuirks
    private var loaded: LibinputQuirks?
    /// How many times the files were read: 0 until a device needed them, then 1.
    public private(set) var loads = 0

    /// Told each of `LibinputQuirks.problems` once, when the files are read: why libinput, and
    /// so flickd, uses none of the quirks (for the log, as a warning).
    public var report: (String) -> Void

    /// `load` reads the quirks (`LibinputQuirks.system` on a real system); `report` hears
    /// their problems.
    public init(load: @escaping () -> LibinputQuirks = LibinputQuirks.system, report: @escaping (String) -> Void = { _ in }) {
        self.load = load
        self.report = report
    }

    /// The quirks, read now if they were not yet.
    public var quirks: LibinputQuirks {
        if let loaded { return loaded }
        let read = load()
        loaded = read
        loads += 1
        read.problems.forEach(report)
        return read
    }

    /// `description` with the resolution libinput gives it (`LibinputQuirks.applied`); the
    /// files are read only when the device lacks a resolution.
    public func applied(to description: DeviceDescription, kind: DeviceKind) -> (DeviceDescription, LibinputQuirks.Hint?) {
        guard ResolutionHint.couldApply(to: description) else { return (description, nil) }
        return quirks.applied(to: description, kind: kind)
    }

    /// Whether libinput scrolls the touchpad `description` naturally by default, and by which
    /// line (`LibinputQuirks.naturalScrollingByDefault`); nil for any other device.
    public func naturalScrollingByDefault(_ description: DeviceDescription, kind: DeviceKind) -> String? {
        guard kind == .touchpad else { return nil }
        return quirks.naturalScrollingByDefault(for: LibinputQuirks.Device(description, kind: kind))
    }
}
