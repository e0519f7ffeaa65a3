/// A file as the kernel identifies it: device and inode numbers, as `stat` reports them.
public struct FileIdentity: Hashable, Sendable {
    /// `st_dev`.
    public var device: UInt64
    /// `st_ino`.
    public var inode: UInt64

    /// The file on `device` with `inode`.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
