import CEvdev
import Glibc

/// A device flickd creates through `/dev/uinput` (the virtual wheel, the virtual touchpad):
/// made from a libevdev template, destroyed on `close`, written one frame (or a lift frame and a
/// landing frame) per syscall from a buffer allocated once, so writing never allocates.
final class UinputDevice {
    /// Bus type `BUS_VIRTUAL`, which flickd's devices declare.
    static let busType: UInt16 = 0x06

    /// The udev rule that gives the user at the seat access to /dev/uinput (`uaccess`), as
    /// systemd/70-flickd-uinput.rules ships it.
    public static let udevRule = #"KERNEL=="uinput", SUBSYSTEM=="misc", OPTIONS+="static_node=uinput", TAG+="uaccess""#
    /// The udev rule that has libinput take flickd's virtual touchpad for an external one, as
    /// systemd/70-flickd-uinput.rules ships it after `udevRule`: an internal one is paired with
    /// the laptop's keyboard (a key ends its scroll while the fingers move), lid and tablet-mode
    /// switch (which suspend it).
    public static let touchpadRule =
        #"SUBSYSTEM=="input", KERNEL=="event*", DEVPATH=="/devices/virtual/input/*", ATTRS{name}=="flickd virtual touchpad", ENV{ID_INPUT_TOUCHPAD_INTEGRATION}="external""#
    /// Where scripts/install puts the rule (the package installs it under /usr/lib/udev/rules.d).
    public static let udevRuleFile = "/etc/udev/rules.d/70-flickd-uinput.rules"
    /// Writes `udevRule` and `touchpadRule` to `udevRuleFile`, one a line, from any directory.
    public static let writeUdevRule = "printf '%s\\n' '\(udevRule)' '\(touchpadRule)' | sudo tee \(udevRuleFile) >/dev/null"
    /// Writes `udevRule` to `udevRuleFile` and applies it to /dev/uinput now, from any directory:
    /// the user's session gets its access without logging in again. Only where uinput is in the
    /// kernel (`moduleInKernel`): `udevadm trigger` needs the device behind the node.
    public static let installUdevRule =
        "\(writeUdevRule) && sudo udevadm control --reload && sudo udevadm trigger /dev/uinput"
    /// Loads uinput now and has it loaded at every boot, from any directory.
    public static let loadModule = "sudo modprobe uinput && echo uinput | sudo tee /etc/modules-load.d/flickd-uinput.conf >/dev/null"

    /// Every place flickd's udev rule is installed, the one that wins first: scripts/install's
    /// (`udevRuleFile`, whatever its --prefix: scripts/lib/paths.sh), which overrides the
    /// package's (scripts/package, packaging/arch).
    public static let udevRuleFiles = [udevRuleFile, "/usr/lib/udev/rules.d/70-flickd-uinput.rules"]
    /// Every place flickd's modules-load file is installed: scripts/install's (as in
    /// `loadModule`) and the package's.
    public static let modulesLoadFiles = ["/etc/modules-load.d/flickd-uinput.conf", "/usr/lib/modules-load.d/flickd-uinput.conf"]
    /// Applies flickd's udev rule, already installed, to /dev/uinput now: udev reads its rules
    /// again and handles the node once more, and uaccess gives it to the active session's user.
    public static let applyUdevRule = "sudo udevadm control --reload && sudo udevadm trigger --action=change /dev/uinput"
    /// Loads uinput now, where its modules-load file (installed) loads it at every boot.
    public static let loadModuleNow = "sudo modprobe uinput"

    /// The first of `files` that `exists`: where flickd installed its file, nil when nowhere.
    /// A fix that writes the file again to /etc would not help where it is there already: it
    /// would shadow the package's copy and outlive the package's purge.
    public static func installedFile(_ files: [String], exists: (String) -> Bool = Syscall.exists) -> String? {
        files.first(where: exists)
    }

    /// Why /dev/uinput is not this user's although flickd's udev rule is installed, most
    /// likely first: uaccess serves only the active local session, and only when udev handles
    /// the node.
    public static let installedRuleCauses =
        "uaccess gives /dev/uinput only to the user of the active local session on the seat, so the likelier cause is the session: an SSH login, a session logind does not count as local (started without pam_systemd), another user's session in front; or the rule was installed after udev last handled /dev/uinput and waits for its next event"

    /// Why uinput is not loaded although flickd's modules-load file is installed.
    public static let installedModuleCauses =
        "systemd-modules-load loads it at boot, so the likelier cause is that the file came after the last boot, or that the running kernel has no uinput module (modules of a kernel upgraded since boot replaced, a kernel built without it), which `sudo modprobe uinput` says"

    /// What a fix that applies the udev rule runs first where uinput is not in the kernel: the
    /// /dev/uinput there is the static node systemd's kmod-static-nodes made at boot, root's
    /// alone, with no device behind it, so `udevadm trigger /dev/uinput` fails ("No such
    /// device") and the rule reaches the node only with the module's own "add" event.
    public static let loadModuleFirst = "\(loadModuleNow) && "

    /// Whether uinput is in the running kernel: loaded (/sys/module/uinput), or built in (the
    /// kernel's modules.builtin lists it, and /sys/module/uinput may not exist).
    public static func moduleInKernel(exists: (String) -> Bool = Syscall.exists,
                                      readFile: (String) -> Result<String, SystemError> = readText) -> Bool {
        exists("/sys/module/uinput") || builtInList(readFile: readFile) != nil
    }

    /// The running kernel's modules.builtin when it lists uinput.ko (the module is part of the
    /// kernel); nil when it does not or cannot be read.
    public static func builtInList(readFile: (String) -> Result<String, SystemError> = readText) -> String? {
        guard let release = kernelRelease(readFile: readFile) else { return nil }
        // /usr/lib/modules too: a system not merged into /usr may keep them only there.
        for root in moduleRoots {
            let path = "\(root)/\(release)/modules.builtin"
            guard case .success(let list) = readFile(path) else { continue }
            // Lines are paths under the kernel tree: kernel/drivers/input/misc/uinput.ko.
            let listed = list.split(separator: "\n").contains { $0 == "uinput.ko" || $0.hasSuffix("/uinput.ko") }
            return listed ? path : nil
        }
        return nil
    }

    /// The running kernel's module directory where it is gone although /dev/uinput, the static
    /// node made at boot from that directory's modules.devname, shows it was there at boot: a
    /// kernel upgraded since boot whose package removed it (Arch's does), so neither modprobe
    /// nor opening the node can load uinput until a reboot. Nil where uinput is in the kernel,
    /// there is no node, the directory is there, or the kernel's release cannot be read.
    public static func modulesGoneSinceBoot(exists: (String) -> Bool = Syscall.exists,
                                            readFile: (String) -> Result<String, SystemError> = readText) -> String? {
        guard exists("/dev/uinput"), !moduleInKernel(exists: exists, readFile: readFile),
              let release = kernelRelease(readFile: readFile) else { return nil }
        // Only where the system keeps its modules there at all: NixOS keeps them elsewhere, and
        // a container may see the host's /dev/uinput without them; a reboot is no fix there.
        guard moduleRoots.contains(where: exists) else { return nil }
        let directories = moduleRoots.map { "\($0)/\(release)" }
        return directories.contains(where: exists) ? nil : directories[0]
    }

    /// Where kernels' module directories are: /lib/modules, and /usr/lib/modules where /lib is
    /// not merged into /usr.
    static let moduleRoots = ["/lib/modules", "/usr/lib/modules"]

    /// Why uinput cannot be loaded until a reboot, where the running kernel's `modules` are gone.
    public static func modulesGoneCause(_ modules: String) -> String {
        "the running kernel's modules (\(modules)) are gone (a kernel upgrade since boot removed them), so nothing can load uinput until a reboot"
    }

    /// The running kernel's release (`uname -r`), from /proc; nil when it cannot be read.
    private static func kernelRelease(readFile: (String) -> Result<String, SystemError>) -> String? {
        guard case .success(let text) = readFile("/proc/sys/kernel/osrelease") else { return nil }
        let release = text.prefix { $0 != "\n" }
        return release.isEmpty ? nil : String(release)
    }

    /// `clause` begun with a capital, to start a sentence.
    private static func sentence(_ clause: String) -> String { clause.prefix(1).uppercased() + clause.dropFirst() }

    /// The text of a file on this machine.
    public static func readText(_ path: String) -> Result<String, SystemError> {
        do { return .success(try TextFile.read(path)) } catch { return .failure(error) }
    }

    /// The daemon's fix for /dev/uinput not writable, in sentences: apply the rule installed at
    /// `installedRule` (and why it did not help), or, where it is not installed, install it.
    /// Where uinput is not in the kernel (`moduleInKernel`), the fix loads it first, the rule
    /// then applying to its device; where the running kernel's `modulesGone`, it says to reboot.
    public static func permissionAdvice(installedRule: String?, moduleInKernel: Bool = moduleInKernel(),
                                        modulesGone: String? = modulesGoneSinceBoot()) -> String {
        if !moduleInKernel, let modulesGone {
            let cause = "the uinput module is not loaded and /dev/uinput is the node made at boot, root's alone; \(modulesGoneCause(modulesGone))"
            guard let installedRule else {
                return "\(sentence(cause)). Install the udev rule that gives the logged-in user access (uaccess) with `\(writeUdevRule)`, then reboot."
            }
            return "flickd's udev rule is installed (\(installedRule)), but \(cause). Reboot."
        }
        guard !moduleInKernel else {
            guard let installedRule else {
                return "Install the udev rule that gives the logged-in user access (uaccess; scripts/install and the package do): `\(installUdevRule)`."
            }
            return "flickd's udev rule is installed (\(installedRule)): \(installedRuleCauses). Apply it now with `\(applyUdevRule)`."
        }
        let notLoaded = "the uinput module is not loaded, and /dev/uinput is the node made at boot, root's alone, which udev hands over only once the module loads"
        guard let installedRule else {
            return "\(sentence(notLoaded)). Load it and install the udev rule that gives the logged-in user access (uaccess; scripts/install and the package do): `\(loadModuleFirst)\(installUdevRule)`."
        }
        return "flickd's udev rule is installed (\(installedRule)), but \(notLoaded). Load it and apply the rule with `\(loadModuleFirst)\(applyUdevRule)`; if access stays denied: \(installedRuleCauses)."
    }

    /// The daemon's fix for uinput not loaded, in sentences: load it now, where the
    /// modules-load file at `installedModules` loads it at boot (and why it is not loaded), or
    /// now and at every boot; where the running kernel's `modulesGone`, reboot.
    public static func moduleAdvice(installedModules: String?, modulesGone: String? = modulesGoneSinceBoot()) -> String {
        if let modulesGone {
            let cause = sentence(modulesGoneCause(modulesGone))
            guard installedModules != nil else {
                return "\(cause): reboot, then load it, now and at every boot, with `\(loadModule)`."
            }
            return "\(cause): reboot (flickd's modules-load file, installed, loads it at boot)."
        }
        guard let installedModules else {
            return "Load it, now and at every boot, with `\(loadModule)` (scripts/install does both)."
        }
        return "flickd's modules-load file is installed (\(installedModules)): \(installedModuleCauses). Load it now with `\(loadModuleNow)`."
    }
    /// The vendor and product ids flickd's devices declare: none.
    static let vendor: UInt16 = 0
    static let product: UInt16 = 0

    private var uinput: OpaquePointer?
    /// A stand-in writing to /dev/null (`init(discardingFrameCapacity:)`), open until `close`.
    private var discardsFrames = false
    /// The uinput descriptor, cached so a write is one syscall.
    private let fileDescriptor: Int32
    /// One write's events, `capacity` of them; fill it, then `writeFrame(count:)`.
    let frame: UnsafeMutablePointer<input_event>
    /// The sysfs path of the input device, to skip it when enumerating devices.
    let syspath: String?
    /// The device node libinput reads, e.g. `/dev/input/event9`; nil if the kernel did not say.
    let devnode: String?

    /// A libevdev description named `name` with flickd's identity (BUS_VIRTUAL, vendor and
    /// product 0, version 1); the caller declares the codes and frees it.
    static func template(name: String) -> OpaquePointer {
        guard let template = libevdev_new() else { fatalError("libevdev_new: out of memory") }
        libevdev_set_name(template, name)
        libevdev_set_id_bustype(template, Int32(busType))
        libevdev_set_id_vendor(template, Int32(vendor))
        libevdev_set_id_product(template, Int32(product))
        libevdev_set_id_version(template, 1)
        return template
    }

    /// Opens `/dev/uinput` as creating a device does, and closes it: whether `name` could be
    /// created now. Throws the `VirtualWheelError` creating it would throw.
    static func checkAccess(name: String) throws(VirtualWheelError) {
        do {
            Syscall.close(try Syscall.open("/dev/uinput", flags: O_RDWR | O_CLOEXEC))
        } catch {
            throw VirtualWheelError(error, device: name)
        }
    }

    /// Creates the device `template` describes (and frees the template). Throws
    /// `VirtualWheelError` naming `name` and the fix when uinput is missing or not writable.
    init(template: OpaquePointer, name: String, frameCapacity: Int) throws(VirtualWheelError) {
        defer { libevdev_free(template) }
        var created: OpaquePointer?
        let status = libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
        guard status == 0, let created else {
            throw VirtualWheelError(SystemError(
                errno: status < 0 ? -status : ENOMEM, call: "libevdev_uinput_create_from_device",
                path: "/dev/uinput"), device: name)
        }
        uinput = created
        fileDescriptor = libevdev_uinput_get_fd(created)
        syspath = libevdev_uinput_get_syspath(created).map { String(cString: $0) }
        devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
        frame = .allocate(capacity: frameCapacity)
    }

    /// A stand-in that creates no device and writes its frames to `/dev/null`: the same
    /// encoding and write as a real device's, for `Rehearsal`. `syspath` and `devnode` are nil.
    init(discardingFrameCapacity frameCapacity: Int) throws(SystemError) {
        uinput = nil
        fileDescriptor = try Syscall.open("/dev/null", flags: O_WRONLY | O_CLOEXEC)
        discardsFrames = true
        syspath = nil
        devnode = nil
        frame = .allocate(capacity: frameCapacity)
    }

    deinit {
        close()
        frame.deallocate()
    }

    /// Destroys the device (libevdev also closes the managed descriptor). Further writes fail.
    func close() {
        if discardsFrames {
            discardsFrames = false
            Syscall.close(fileDescriptor)
        }
        guard let uinput else { return }
        libevdev_uinput_destroy(uinput)
        self.uinput = nil
    }

    /// Writes the first `count` events of `frame` in one syscall; nothing when `count` is 0.
    func writeFrame(count: Int) throws(SystemError) {
        guard uinput != nil || discardsFrames else { throw SystemError(errno: EBADF, call: "write", path: "/dev/uinput") }
        guard count > 0 else { return }
        let bytes = count * MemoryLayout<input_event>.stride
        let written = try Syscall.write(fileDescriptor, UnsafeRawBufferPointer(start: frame, count: bytes))
        if written != bytes { throw SystemError(errno: EIO, call: "write", path: "/dev/uinput") }
    }
}
