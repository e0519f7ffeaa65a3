import Testing
@testable import FlickCore

/// How a device's units become millimetres.
@Suite struct DeviceGeometryTests {
    static func pad(x: AxisInfo, y: AxisInfo) -> DeviceDescription {
        DeviceDescription(name: "Pad", absoluteAxes: [EventCode.absMTPositionX: x, EventCode.absMTPositionY: y])
    }

    @Test func aReportedResolutionIsUsedAsItIs() {
        let geometry = DeviceGeometry(description: Self.pad(x: AxisInfo(minimum: 1472, maximum: 5472, resolution: 42),
                                                            y: AxisInfo(minimum: 1408, maximum: 4448, resolution: 42)),
                                      kind: .touchpad)
        #expect(geometry.x.unitsPerMillimetre == 42 && !geometry.x.isEstimated)
        #expect(abs(geometry.y.lengthMillimetres - 3040.0 / 42) < 1e-9)
    }

    /// libinput divides the range by 69 × 50 mm and keeps whole units per millimetre; the
    /// virtual touchpad's fingers must move by that scale, so flickd keeps the same.
    @Test func aTouchpadWithoutResolutionGetsLibinputsWholeUnits() {
        let geometry = DeviceGeometry(description: Self.pad(x: AxisInfo(minimum: 0, maximum: 1280),
                                                            y: AxisInfo(minimum: 0, maximum: 704)),
                                      kind: .touchpad)
        #expect(geometry.x.unitsPerMillimetre == 18, "1280 / 69 = 18.55, truncated")
        #expect(geometry.y.unitsPerMillimetre == 14, "704 / 50 = 14.08, truncated")
        #expect(geometry.x.isEstimated && geometry.y.isEstimated)
        #expect(abs(geometry.x.lengthMillimetres - 1280.0 / 18) < 1e-9, "71.1 mm: the size follows the whole units")
        #expect(abs(geometry.y.lengthMillimetres - 704.0 / 14) < 1e-9)
    }

    @Test func aTinyRangeStillGetsOneUnitPerMillimetre() {
        let geometry = DeviceGeometry(description: Self.pad(x: AxisInfo(minimum: 0, maximum: 40),
                                                            y: AxisInfo(minimum: 0, maximum: 30)),
                                      kind: .touchpad)
        #expect(geometry.x.unitsPerMillimetre == 1 && geometry.y.unitsPerMillimetre == 1)
        #expect(geometry.x.lengthMillimetres == 40)
    }

    /// libinput maps a touchscreen onto the screen, not by millimetres: its assumed panel
    /// size stays as it is.
    @Test func aTouchscreenWithoutResolutionKeepsTheAssumedPanel() {
        let geometry = DeviceGeometry(description: Self.pad(x: AxisInfo(minimum: 0, maximum: 4095),
                                                            y: AxisInfo(minimum: 0, maximum: 4095)),
                                      kind: .touchscreen)
        #expect(geometry.x.lengthMillimetres == DeviceGeometry.assumedTouchscreenSize.width)
        #expect(abs(geometry.y.unitsPerMillimetre - 4095 / DeviceGeometry.assumedTouchscreenSize.height) < 1e-9)
    }

    @Test func aDeviceRuleResolutionWins() {
        let geometry = DeviceGeometry(description: Self.pad(x: AxisInfo(minimum: 0, maximum: 1280),
                                                            y: AxisInfo(minimum: 0, maximum: 704)),
                                      kind: .touchpad, resolutionOverride: 31)
        #expect(geometry.x.unitsPerMillimetre == 31 && !geometry.x.isEstimated)
    }
}
