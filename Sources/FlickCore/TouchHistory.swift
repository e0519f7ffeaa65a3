/// One sample of a gesture's position: when, and where (millimetres, device coordinates).
public struct TouchSample: Hashable, Sendable {
    /// When the frame was reported.
    public var time: Instant
    /// The gesture's accumulated position, in millimetres.
    public var position: Vector

    /// A sample at `time` and `position`.
    public init(time: Instant, position: Vector) {
        self.time = time
        self.position = position
    }
}

/// A fixed-capacity ring buffer of the newest samples of the gesture in progress.
///
/// Storage is allocated once, at creation; appending never allocates.
public struct TouchHistory {
    /// The most samples kept (the oldest are overwritten).
    public let capacity: Int
    private var storage: [TouchSample]
    private var start = 0
    /// Number of samples held.
    public private(set) var count = 0

    /// An empty history holding at most `capacity` samples (at least 4).
    public init(capacity: Int = 64) {
        self.capacity = max(4, capacity)
        storage = Array(repeating: TouchSample(time: .zero, position: .zero), count: self.capacity)
    }

    /// Appends the newest sample, dropping the oldest when full.
    public mutating func append(_ sample: TouchSample) {
        if count < capacity {
            storage[(start + count) % capacity] = sample
            count += 1
        } else {
            storage[start] = sample
            start = (start + 1) % capacity
        }
    }

    /// Forgets every sample.
    public mutating func removeAll() {
        start = 0
        count = 0
    }

    /// Drops the `n` newest samples.
    public mutating func removeNewest(_ n: Int) {
        count = max(0, count - max(0, n))
    }

    /// The sample `age` places back from the newest (0 = newest). `age` must be < count.
    public subscript(newest age: Int) -> TouchSample {
        storage[(start + count - 1 - age) % capacity]
    }

    /// The newest sample, if any.
    public var newest: TouchSample? { count > 0 ? self[newest: 0] : nil }

    /// The oldest sample, if any.
    public var oldest: TouchSample? { count > 0 ? self[newest: count - 1] : nil }
}
