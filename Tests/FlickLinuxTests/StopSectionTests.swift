import Testing
import FlickCore
@testable import FlickLinux

@Suite struct StopSectionTests {
    @Test func stopKeysReadAtTheTopLevel() throws {
        let c = try ConfigurationLoader.parse(text: "[stop]\nkey = false\nbutton = false\n", path: "flickd.toml")
        #expect(c.stop.key == false && c.stop.button == false && c.stop.touch == true)
    }

    @Test func outputModeIsReadAndGlobal() throws {
        let wheel = try ConfigurationLoader.parse(text: "[output]\nmode = \"wheel\"\n", path: "flickd.toml")
        #expect(wheel.output.mode == .wheel)
        #expect(Configuration.defaults.output.mode == .touchpad)
        let text = "[[device]]\nname = \"pad\"\n[device.output]\nmode = \"wheel\"\n"
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.parse(text: text, path: "flickd.toml") }
    }

    @Test func stopIsNotADeviceSetting() {
        let text = "[[device]]\nname = \"pad\"\n[device.stop]\nkey = false\n"
        do {
            _ = try ConfigurationLoader.parse(text: text, path: "flickd.toml")
            Issue.record("[device.stop] was accepted")
        } catch let error as ConfigurationError {
            #expect(error.problems.map(\.description) == [
                "flickd.toml:3: unknown section [device.stop] in device[1]; [stop] applies to the whole daemon and goes at the top level; the sections are [device.scroll], [device.coast], [device.velocity], [device.touchpad], [device.touchscreen]",
            ])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
