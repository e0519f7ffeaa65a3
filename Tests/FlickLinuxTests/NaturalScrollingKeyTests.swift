import Testing
import FlickCore
@testable import FlickLinux

@Suite struct NaturalScrollingKeyTests {
    @Test func autoTrueAndFalse() {
        #expect(Configuration.defaults.scroll.natural == .auto)
        #expect(parsed("[scroll]\nnatural = \"auto\"\n")?.scroll.natural == .auto)
        #expect(parsed("[scroll]\nnatural = true\n")?.scroll.natural == .on)
        #expect(parsed("[scroll]\nnatural = false\n")?.scroll.natural == .off)
    }

    @Test func theKeyReadsBackAsWritten() throws {
        let key = try #require(ConfigurationLoader.key(named: "scroll.natural"))
        #expect(key.defaultValue == .string("auto"))
        #expect(key.rangeText == "true, false or \"auto\"")
        var configuration = Configuration()
        configuration.scroll.natural = .on
        #expect(key.value(in: configuration) == .boolean(true))
        configuration.scroll.natural = .off
        #expect(key.value(in: configuration) == .boolean(false))
    }

    @Test func wrongValuesSayWhatIsAccepted() {
        #expect(problems("[scroll]\nnatural = \"atuo\"\n") == [
            "flickd.toml:2: scroll.natural = \"atuo\" is not true, false or \"auto\"; did you mean \"auto\"?; \"auto\" is the default",
        ])
        #expect(problems("[scroll]\nnatural = \"true\"\n") == [
            "flickd.toml:2: scroll.natural = \"true\" is not true, false or \"auto\"; write natural = true, without quotes; \"auto\" is the default",
        ])
        #expect(problems("[scroll]\nnatural = \"off\"\n") == [
            "flickd.toml:2: scroll.natural = \"off\" is not true, false or \"auto\"; write natural = false, without quotes; \"auto\" is the default",
        ])
        #expect(problems("[scroll]\nnatural = \"sideways\"\n") == [
            "flickd.toml:2: scroll.natural = \"sideways\" is not true, false or \"auto\"; \"auto\" is the default",
        ])
    }
}
