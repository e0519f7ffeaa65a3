import FlickCore

/// The touchpads of an X11 session and the natural scrolling the X server's libinput driver
/// applies to each, from what `xinput list` and `xinput list-props ID` print:
///
///     ⎜   ↳ SynPS/2 Synaptics TouchPad              	id=7	[slave  pointer  (2)]
///
///     Device 'SynPS/2 Synaptics TouchPad':
///     	libinput Tapping Enabled (254):	0
///     	libinput Natural Scrolling Enabled (262):	1
///     	Device Product ID (243):	2, 7
///
/// Rationale: under X11 every desktop keeps its touchpad settings its own way, and many per
/// device: Xfce's `pointers` channel and KDE Plasma's `touchpadxlibinputrc` by the device's
/// name, a window manager's start-up script with `xinput set-prop` on one device. Any of them
/// leaves "flickd virtual touchpad" at libinput's default (off) while the real pad scrolls
/// naturally, and then every glide runs backwards. What the X server holds for each device is
/// the setting in force, whoever set it, so flickd reads that, for the real pads and the virtual
/// one alike, as it reads sway's inputs. `xinput` (Debian's package of that name) is a small
/// X client run only when the desktop is asked, so the daemon links no X library.
///
/// A touchpad the synaptics X driver (xf86-input-synaptics) drives instead has that driver's
/// properties:
///
///     	Synaptics Scrolling Distance (262):	99, 99
///     	Synaptics Coasting Speed (277):	20.000000, 50.000000
///
/// Its scrolling is natural when the vertical distance is negative, and the driver glides by
/// itself after a two-finger scroll while the coasting speed (scrolls per second a release
/// needs) is above 0, as it is by default. Such a pad's flicks start no coast of flickd's
/// (`PerDeviceNaturalScrolling.Entry.driverGlides`): a glide of flickd's on top of the
/// driver's stopped the driver's in the guest (docs/APPS.md, "The synaptics X driver"). The
/// driver gives a device whose ids are both 0 (flickd's virtual touchpad) no `Device Product
/// ID`.
public enum XInputDevices {
    /// The X server's slave pointers (and floating slaves): the devices whose properties are read.
    public static func pointerIDs(list: String) -> [Int] {
        // "⎜   ↳ NAME<spaces>\tid=7\t[slave  pointer  (2)]"
        list.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            guard fields.count >= 3, fields[2].hasPrefix("[slave  pointer") || fields[2].hasPrefix("[floating slave"),
                  fields[1].hasPrefix("id=") else { return nil }
            return Int(fields[1].dropFirst(3))
        }
    }

    /// The touchpad `xinput list-props` describes, with its natural scrolling and whether its
    /// driver glides by itself; nil for another device, or a touchpad whose driver is neither
    /// libinput nor synaptics. A touchpad is a device with libinput's tapping property, which
    /// libinput offers for touchpads only, or with the synaptics driver's scrolling distance.
    public static func touchpad(listProps text: String) -> PerDeviceNaturalScrolling.Entry? {
        var name: String?
        var natural: Bool?
        var ids: (vendor: UInt16, product: UInt16)?
        var tapping = false
        var synaptics = false
        var coastingSpeed: Double?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Device '"), line.hasSuffix("':") {
                name = String(line.dropFirst("Device '".count).dropLast(2))
                continue
            }
            // "\tlibinput Natural Scrolling Enabled (262):\t1"
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, fields[0].isEmpty, fields[1].hasSuffix("):"),
                  let open = fields[1].lastIndex(of: "(") else { continue }
            let property = fields[1][..<open].trimmingWhitespace
            let value = fields[2...].joined(separator: "\t").trimmingWhitespace
            switch property {
            case "libinput Natural Scrolling Enabled": natural = value == "1" ? true : value == "0" ? false : nil
            case "libinput Tapping Enabled": tapping = true
            case "Synaptics Scrolling Distance":
                guard let vertical = value.split(separator: ",").first.flatMap({ Int($0.trimmingWhitespace) }) else { break }
                synaptics = true
                natural = vertical < 0
            case "Synaptics Coasting Speed":
                coastingSpeed = value.split(separator: ",").first.flatMap { Double($0.trimmingWhitespace) }
            case "Device Product ID":
                let parts = value.split(separator: ",").map { UInt16($0.trimmingWhitespace) }
                if parts.count == 2, let vendor = parts[0], let product = parts[1] { ids = (vendor, product) }
            default: break
            }
        }
        if synaptics {
            guard let name, let natural else { return nil }
            let (vendor, product) = ids ?? (0, 0)
            let glides = coastingSpeed.flatMap { $0 > 0 ? Self.synapticsGlides(coastingSpeed: $0) : nil }
            return .init(device: DeviceIdentity(name: name, vendor: vendor, product: product), natural: natural,
                         driverGlides: glides, xDriver: Self.synaptics)
        }
        guard let name, let natural, let ids, tapping else { return nil }
        return .init(device: DeviceIdentity(name: name, vendor: ids.vendor, product: ids.product), natural: natural,
                     xDriver: Self.libinput)
    }

    /// The drivers' names, for `PerDeviceNaturalScrolling.Entry.xDriver`.
    public static let libinput = "libinput"
    public static let synaptics = "synaptics"

    /// Why a pad the synaptics driver drives starts no coast of flickd's, for the log and doctor.
    static func synapticsGlides(coastingSpeed: Double) -> String {
        let speed = coastingSpeed == coastingSpeed.rounded() && coastingSpeed < 1e9 ? "\(Int(coastingSpeed))" : "\(coastingSpeed)"
        return "the synaptics X driver glides by itself (Synaptics Coasting Speed \(speed))"
    }

    /// Why the X server was not asked when xinput is not installed, for the log and doctor.
    public static let missing = "xinput is not on the PATH"

    /// Where the answer came from, for messages: `X server :0 (xinput list-props)`.
    public static func source(display: String) -> String { "X server \(display) (xinput list-props)" }
}
