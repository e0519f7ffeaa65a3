import CXInput
import FlickCore

/// The touchpads of an X11 session and the natural scrolling and scrolling speed the X
/// server's libinput driver applies to each, from the X server's input devices and their
/// properties (what `xinput list` and `xinput list-props ID` show):
///
///     SynPS/2 Synaptics TouchPad (id 7, a slave pointer):
///         libinput Tapping Enabled: 0
///         libinput Natural Scrolling Enabled: 1
///         libinput Scrolling Pixel Distance: 15
///         Device Product ID: 2, 7
///
/// The scroll distance is the pad's speed, more being slower (`scrollFactor`).
///
/// Rationale: under X11 every desktop keeps its touchpad settings its own way, and many per
/// device: Xfce's `pointers` channel and KDE Plasma's `touchpadxlibinputrc` by the device's
/// name, a window manager's start-up script with `xinput set-prop` on one device. Any of them
/// leaves "flickd virtual touchpad" at libinput's default (off) while the real pad scrolls
/// naturally, and then every glide runs backwards. What the X server holds for each device is
/// the setting in force, whoever set it, so flickd reads that, for the real pads and the virtual
/// one alike, as it reads sway's inputs. It reads them over a connection of its own made for
/// the ask (`read(display:timeout:)`), with libXi's requests (XIQueryDevice, XIGetProperty),
/// libX11 and libXi loaded with dlopen only on a session whose X server flickd asks, as for the
/// watch (`XServerWatch`): one connection and a few round trips, where running `xinput` took
/// one process per device and needed Debian's xinput package.
///
/// A touchpad the synaptics X driver (xf86-input-synaptics) drives instead has that driver's
/// properties:
///
///         Synaptics Scrolling Distance: 99, 99
///         Synaptics Coasting Speed: 20.0, 50.0
///
/// Its scrolling is natural when the vertical distance is negative, and the driver glides by
/// itself after a two-finger scroll while the coasting speed (scrolls per second a release
/// needs) is above 0, as it is by default. Such a pad's flicks start no coast of flickd's
/// (`PerDeviceNaturalScrolling.Entry.driverGlides`): a glide of flickd's on top of the
/// driver's stopped the driver's in the guest (docs/APPS.md, "The synaptics X driver"). The
/// driver gives a device whose ids are both 0 (flickd's virtual touchpad) no `Device Product
/// ID`. Such a pad's scrolling speed is left unknown: its scrolling distance is in the pad's
/// own units, which say nothing against another driver's pixel distance.
public enum XInputDevices {
    /// One of the X server's slave pointers (or floating slaves): its name, and the values of
    /// those of `properties` it has (integers and floats, a few of each).
    public struct Device: Sendable, Equatable {
        public var name: String
        public var properties: [String: [Double]]

        public init(name: String, properties: [String: [Double]]) {
            self.name = name
            self.properties = properties
        }
    }

    /// The properties read of each device: libinput's natural scrolling, tapping (which
    /// libinput offers for touchpads only) and scroll distance, the synaptics driver's
    /// scrolling distance and coasting speed, and the device's ids. At most
    /// `FLICKD_XPROPERTIES_MAX` (8), what the C reader keeps.
    public static let naturalScrolling = "libinput Natural Scrolling Enabled"
    public static let tapping = "libinput Tapping Enabled"
    public static let scrollPixelDistance = "libinput Scrolling Pixel Distance"
    public static let scrollingDistance = "Synaptics Scrolling Distance"
    public static let coastingSpeed = "Synaptics Coasting Speed"
    public static let productID = "Device Product ID"
    public static let properties = [naturalScrolling, tapping, scrollPixelDistance, scrollingDistance, coastingSpeed, productID]

    /// The libinput X driver's scroll distance for a device nobody set one for: 15 (its
    /// `ScrollPixelDistance` option's default; the driver takes 10 to 50).
    public static let defaultScrollPixelDistance = 15.0

    /// The scrolling speed the libinput X driver gives `device`, as a factor on the driver's
    /// default, as KWin's `ScrollFactor` and sway's `scroll_factor` are on theirs:
    ///
    ///     factor = defaultScrollPixelDistance / distance        (15 / 30 = 0.5: half as fast)
    ///
    /// The driver makes a device's `libinput Scrolling Pixel Distance` the increment of its
    /// smooth-scroll valuators, and clients (GTK, Qt, the server's own wheel-button emulation)
    /// scroll by the valuator's motion over that increment: twice the distance, half the
    /// scroll for the same finger motion. So the two pads' speeds, as
    /// `Engine.glideSpeedRatio(source:virtual:)` takes them, give the virtual pad's distance
    /// over the real pad's. nil when the device has no such property (the synaptics driver's
    /// pads, an X server's other drivers), or its value is not a positive distance.
    public static func scrollFactor(_ device: Device) -> Double? {
        guard let values = device.properties[scrollPixelDistance], values.count == 1,
              let distance = values.first, distance.isFinite, distance > 0 else { return nil }
        return defaultScrollPixelDistance / distance
    }

    /// The touchpad `device` is, with its natural scrolling and whether its driver glides by
    /// itself; nil for another device, or a touchpad whose driver is neither libinput nor
    /// synaptics. A touchpad is a device with libinput's tapping property or with the synaptics
    /// driver's scrolling distance.
    public static func touchpad(_ device: Device) -> PerDeviceNaturalScrolling.Entry? {
        let values = device.properties
        var ids: (vendor: UInt16, product: UInt16)?
        if let id = values[productID], id.count == 2, let vendor = UInt16(exactly: id[0]), let product = UInt16(exactly: id[1]) {
            ids = (vendor, product)
        }
        if let vertical = values[scrollingDistance]?.first {
            let (vendor, product) = ids ?? (0, 0)
            let glides = values[coastingSpeed]?.first.flatMap { $0 > 0 ? Self.synapticsGlides(coastingSpeed: $0) : nil }
            return .init(device: DeviceIdentity(name: device.name, vendor: vendor, product: product), natural: vertical < 0,
                         driverGlides: glides, xDriver: Self.synaptics)
        }
        guard let setting = values[naturalScrolling]?.first, setting == 0 || setting == 1,
              values[tapping]?.isEmpty == false, let ids else { return nil }
        return .init(device: DeviceIdentity(name: device.name, vendor: ids.vendor, product: ids.product), natural: setting == 1,
                     xDriver: Self.libinput)
    }

    /// The X server's slave pointers and floating slaves on `display` (as `DISPLAY` spells
    /// it), with those of `properties` each has; why not when the server cannot be reached,
    /// does not answer within `timeout`, or libX11 and libXi cannot be loaded. The ask is made
    /// on a thread of its own, as the watch's opening is (`XServerWatch`): a server that
    /// accepts and never answers holds the caller no longer than `timeout`.
    static func read(display: String, timeout: Duration = DesktopSettings.xServerTimeout) -> Result<[Device], DesktopSettings.Miss> {
        let capacity = 64
        var found = [flickd_xdevice](repeating: flickd_xdevice(), count: capacity)
        var why = [CChar](repeating: 0, count: 256)
        let milliseconds = Int32(clamping: max(1, timeout.microseconds / 1000))
        let count = flickd_xread(display, properties.joined(separator: "\n"), milliseconds, &found, Int32(capacity), &why, why.count)
        guard count >= 0 else {
            return .failure(DesktopSettings.Miss(why: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                                 unanswered: true))
        }
        return .success(found.prefix(Int(count)).map { device in
            var device = device
            let name = withUnsafeBytes(of: &device.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let counts = withUnsafeBytes(of: &device.counts) { Array($0.bindMemory(to: Int32.self)) }
            let values = withUnsafeBytes(of: &device.values) { Array($0.bindMemory(to: Double.self)) }
            let width = values.count / counts.count
            var read: [String: [Double]] = [:]
            for (index, property) in properties.enumerated() where counts[index] > 0 {
                read[property] = Array(values[(index * width)..<(index * width + Int(counts[index]))])
            }
            return Device(name: name, properties: read)
        })
    }

    /// The drivers' names, for `PerDeviceNaturalScrolling.Entry.xDriver`.
    public static let libinput = "libinput"
    public static let synaptics = "synaptics"

    /// Why a pad the synaptics driver drives starts no coast of flickd's, for the log and doctor.
    static func synapticsGlides(coastingSpeed: Double) -> String {
        let speed = coastingSpeed == coastingSpeed.rounded() && coastingSpeed < 1e9 ? "\(Int(coastingSpeed))" : "\(coastingSpeed)"
        return "the synaptics X driver glides by itself (Synaptics Coasting Speed \(speed))"
    }

    /// Whether `why` (a miss of `read` or of the watch's opening) is that libX11 or libXi
    /// could not be loaded, for doctor's fix.
    public static func librariesMissing(_ why: String) -> Bool {
        why.containsText("libXi.so") || why.containsText("libX11.so")
    }

    /// Where the answer came from, for messages: `X server :0 (XInput device properties)`.
    public static func source(display: String) -> String { "X server \(display) (XInput device properties)" }
}
