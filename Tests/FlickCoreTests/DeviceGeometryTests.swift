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

    /// A portrait panel without a resolution (0...1200 × 0...1920): the assumed 294 × 165 mm
    /// panel is turned, its 294 mm along the longer range, y. It was read as landscape, 4.1
    /// units/mm across and 11.6 down: a drag down the screen measured a third of its speed
    /// across it. Turned, 7.3 and 6.5; a 16:9 portrait range (1080 × 1920) gets one scale.
    @Test func aPortraitTouchscreenWithoutResolutionIsAPortraitPanel() {
        let geometry = DeviceGeometry(description: Self.pad(x: AxisInfo(minimum: 0, maximum: 1200),
                                                            y: AxisInfo(minimum: 0, maximum: 1920)),
                                      kind: .touchscreen)
        #expect(geometry.y.lengthMillimetres == DeviceGeometry.assumedTouchscreenSize.width, "\(geometry.y)")
        #expect(geometry.x.lengthMillimetres == DeviceGeometry.assumedTouchscreenSize.height, "\(geometry.x)")
        #expect(abs(geometry.x.unitsPerMillimetre - 1200 / 165.0) < 1e-9 && abs(geometry.y.unitsPerMillimetre - 1920 / 294.0) < 1e-9,
                "7.3 and 6.5 units/mm: \(geometry)")
        #expect(geometry.x.isEstimated && geometry.y.isEstimated)

        let sixteenByNine = DeviceGeometry(description: Self.pad(x: AxisInfo(minimum: 0, maximum: 1080),
                                                                 y: AxisInfo(minimum: 0, maximum: 1920)),
                                           kind: .touchscreen)
        #expect(abs(sixteenByNine.x.unitsPerMillimetre / sixteenByNine.y.unitsPerMillimetre - 1) < 0.005, "\(sixteenByNine)")
        let landscape = DeviceGeometry(description: Self.pad(x: AxisInfo(minimum: 0, maximum: 1920),
                                                             y: AxisInfo(minimum: 0, maximum: 1080)),
                                       kind: .touchscreen)
        #expect(landscape.x.lengthMillimetres == 294 && landscape.y.lengthMillimetres == 165, "landscape, as before")
    }

    /// libinput 1.25 and later measure an axis range as `maximum − minimum + 1` for the 69 ×
    /// 50 mm guess (`LibinputAxisRange`); where the description does not say, flickd keeps the
    /// difference, as 1.22 does.
    @Test func theGuessDividesTheRangeAsTheInstalledLibinputMeasuresIt() {
        var pad = Self.pad(x: AxisInfo(minimum: 0, maximum: 2000), y: AxisInfo(minimum: 0, maximum: 1400))
        #expect(DeviceGeometry(description: pad, kind: .touchpad).x.unitsPerMillimetre == 28, "2000 / 69 = 28.99")
        pad.libinputAxisRange = .inclusive
        #expect(DeviceGeometry(description: pad, kind: .touchpad).x.unitsPerMillimetre == 29, "2001 / 69 = 29.0")
        #expect(AxisInfo(minimum: 1024, maximum: 5112).libinputRange(.inclusive) == 4089)
        #expect(AxisInfo(minimum: 5, maximum: 5).libinputRange(.difference) == 1, "at least 1")
    }

    @Test func aDeviceRuleResolutionWins() {
        let geometry = DeviceGeometry(description: Self.pad(x: AxisInfo(minimum: 0, maximum: 1280),
                                                            y: AxisInfo(minimum: 0, maximum: 704)),
                                      kind: .touchpad, resolutionOverride: 31)
        #expect(geometry.x.unitsPerMillimetre == 31 && !geometry.x.isEstimated)
    }
}
