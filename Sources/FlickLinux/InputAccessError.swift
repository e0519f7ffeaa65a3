/// An evdev node flickd may not read, with the fix in one paragraph.
public struct InputAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The failed open (`isPermissionDenied`).
    public var underlying: SystemError

    /// The denied open `underlying`.
    public init(_ underlying: SystemError) {
        self.underlying = underlying
    }

    public var description: String {
        """
        cannot read \(underlying.path ?? "/dev/input/event*") (\(underlying.reason)). \
        Reading touchpads and touchscreens takes membership of the input group: \
        `sudo usermod -aG input $USER`, then log out and back in (or start a shell with \
        `newgrp input`). Alternatively, a udev rule tagging the devices with TAG+="uaccess" \
        gives the logged-in user the same access. flickd only reads these devices and never \
        grabs them; key presses are used only to stop a coast and are never recorded.
        """
    }
}
