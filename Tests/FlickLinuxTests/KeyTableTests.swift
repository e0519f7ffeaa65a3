import Testing
import FlickCore
@testable import FlickLinux

@Suite struct KeyTableTests {
    @Test func namesAreUniqueAndSectionsAreTheSeven() {
        let names = ConfigurationLoader.keys.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count == 20)
        #expect(ConfigurationLoader.sections == ["scroll", "coast", "velocity", "touchpad", "touchscreen", "stop", "output"])
        #expect(ConfigurationLoader.deviceSections == ["scroll", "coast", "velocity", "touchpad", "touchscreen"])
    }

    @Test func everyDefaultIsInsideItsRange() {
        for key in ConfigurationLoader.keys {
            switch (key.defaultValue, key.range) {
            case (.number(let number), let range?): #expect(range.contains(number), "\(key.name)")
            case (.integer(let integer), let range?): #expect(range.contains(Double(integer)), "\(key.name)")
            case (.string(let string), _): #expect(key.choices.contains(string), "\(key.name)")
            case (.boolean, _): break
            default: Issue.record("\(key.name): default \(key.defaultValue) does not fit kind \(key.kind)")
            }
        }
    }

    /// Each key's setter must reach its own field and no other: set a different valid value and
    /// read every key back.
    @Test func eachKeyWritesItsOwnFieldOnly() {
        for key in ConfigurationLoader.keys {
            let other: ConfigurationValue
            switch key.defaultValue {
            case .number(let number): other = .number(number == key.range!.upperBound ? key.range!.lowerBound : key.range!.upperBound)
            case .integer(let integer): other = .integer(integer == Int(key.range!.upperBound) ? Int(key.range!.lowerBound) : Int(key.range!.upperBound))
            case .boolean(let boolean): other = .boolean(!boolean)
            case .string where key.kind == .booleanOrChoice: other = .boolean(true)
            case .string(let string): other = .string(key.choices.first { $0 != string }!)
            }
            var configuration = Configuration.defaults
            key.write(&configuration, other)
            #expect(configuration != .defaults, "\(key.name) changed nothing")
            for probe in ConfigurationLoader.keys {
                let expected = probe.name == key.name ? other : probe.defaultValue
                #expect(probe.value(in: configuration) == expected, "writing \(key.name) = \(other): \(probe.name) reads \(probe.value(in: configuration))")
            }
        }
    }
}
