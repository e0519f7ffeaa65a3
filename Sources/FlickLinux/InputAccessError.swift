import FlickCore

/// An evdev node flickd may not read, with what that costs and the fix in one paragraph.
public struct InputAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The failed open (`isPermissionDenied`).
    public var underlying: SystemError
    /// The kind of device refused (nil: not known).
    public var kind: InputNode.Kind?
    /// What its refusal costs (`cost(of:)`), as the end of a sentence; nil when not known.
    public var cost: String?

    /// The denied open `underlying` of a device of `kind`.
    public init(_ underlying: SystemError, kind: InputNode.Kind? = nil) {
        self.underlying = underlying
        self.kind = kind
        cost = Self.cost(of: kind)
    }

    /// The denied open `underlying` of `node`, opened as the stop settings `stop` have it.
    public init(_ underlying: SystemError, node: InputNode, under stop: Configuration.Stop) {
        self.underlying = underlying
        kind = node.kind
        cost = Self.cost(of: node, under: stop)
    }

    /// What flickd does without a device of `kind`, as the end of a sentence; nil when not known.
    public static func cost(of kind: InputNode.Kind?) -> String? {
        switch kind {
        case .touchpad?: return "this touchpad gets no glide"
        case .touchscreen?: return "this touchscreen gets no glide"
        case .keyboard?: return "its key presses do not stop a coast"
        case .mouse?: return "its buttons do not stop a coast"
        case .other?, nil: return nil
        }
    }

    /// What flickd does without `node`, under the stop settings `stop`: for a mouse or keyboard,
    /// the presses it was opened for (`InputNode.stopPress(under:)`), so that a mouse with
    /// keyboard keys (Logitech's K400) says its key presses.
    public static func cost(of node: InputNode, under stop: Configuration.Stop) -> String? {
        guard node.kind == .mouse || node.kind == .keyboard else { return cost(of: node.kind) }
        switch node.stoppingPresses(under: stop) {
        case (true, true): return "its button and key presses do not stop a coast"
        case (true, false): return "its buttons do not stop a coast"
        case (false, true): return "its key presses do not stop a coast"
        // Opened for nothing (not opened at all): by its kind.
        case (false, false): return cost(of: node.kind)
        }
    }

    public var description: String {
        """
        cannot read \(underlying.path ?? "/dev/input/event*") (\(underlying.reason))\(cost.map { ": \($0)" } ?? ""). \
        Reading touchpads and touchscreens, and the keyboards and mice that stop a coast, takes \
        membership of the input group: `sudo usermod -aG input $USER`, then log out of every \
        session and back in, or reboot (the systemd user manager keeps the groups it started with, \
        and lives on between logins with lingering on or when you log in again within seconds; \
        for a flickd started from a shell, `newgrp input`). flickd only reads these devices and never \
        grabs them; key presses are used only to stop a coast and are never recorded.
        """
    }
}
