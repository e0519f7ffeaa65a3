/// An evdev node flickd may not read, with what that costs and the fix in one paragraph.
public struct InputAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The failed open (`isPermissionDenied`).
    public var underlying: SystemError
    /// The kind of device refused (nil: not known), for what its refusal costs.
    public var kind: InputNode.Kind?

    /// The denied open `underlying` of a device of `kind`.
    public init(_ underlying: SystemError, kind: InputNode.Kind? = nil) {
        self.underlying = underlying
        self.kind = kind
    }

    /// What flickd does without the device, as the end of a sentence; nil when not known.
    public static func cost(of kind: InputNode.Kind?) -> String? {
        switch kind {
        case .touchpad?: return "this touchpad gets no glide"
        case .touchscreen?: return "this touchscreen gets no glide"
        case .keyboard?: return "its key presses do not stop a coast"
        case .mouse?: return "its buttons do not stop a coast"
        case .other?, nil: return nil
        }
    }

    public var description: String {
        """
        cannot read \(underlying.path ?? "/dev/input/event*") (\(underlying.reason))\(Self.cost(of: kind).map { ": \($0)" } ?? ""). \
        Reading touchpads and touchscreens, and the keyboards and mice that stop a coast, takes \
        membership of the input group: `sudo usermod -aG input $USER`, then log out of every \
        session and back in, or reboot (the systemd user manager keeps the groups it started with, \
        and lives on between logins with lingering on or when you log in again within seconds; \
        for a flickd started from a shell, `newgrp input`). flickd only reads these devices and never \
        grabs them; key presses are used only to stop a coast and are never recorded.
        """
    }
}
