import AppModel
import KeyboardCore
import Testing

/// Auto-show's setting (issue 30): `"autoShow": true|false` in settings.json (absent: on),
/// `--auto-show` / `--no-auto-show` for one run.
@Suite("Auto-show: setting and flags")
struct AutoShowSettingTests {
    static func configuration(_ arguments: [String], settings json: String = "{}") throws -> RunConfiguration {
        guard case .run(let options) = try LaunchOptions.parse(arguments) else {
            Issue.record("\(arguments) is not a run")
            return try #require(nil as RunConfiguration?)
        }
        return options.configuration(settings: try Settings.decode(Array(json.utf8)), environment: [:])
    }

    @Test func onByDefaultTheSettingThenTheFlagsDecide() throws {
        #expect(try Self.configuration(["--system"]).autoShow)
        #expect(try !Self.configuration(["--system"], settings: #"{"autoShow": false}"#).autoShow)
        #expect(try Self.configuration(["--system", "--auto-show"], settings: #"{"autoShow": false}"#).autoShow)
        #expect(try !Self.configuration(["--system", "--no-auto-show"]).autoShow)
        #expect(try Self.configuration(["--no-auto-show", "--system", "--auto-show"]).autoShow, "the last wins")
        #expect(LaunchOptions.usage.contains("--auto-show  ") && LaunchOptions.usage.contains("--no-auto-show  "))
    }

    @Test func theSettingIsSavedAndAWrongTypeMeansOn() throws {
        var settings = Settings()
        settings.autoShow = false
        #expect(try Settings.decode(settings.encoded).autoShow == false)
        let members = try #require(try JSONValue.parse(#"{"autoShow": "yes"}"#).objectMembers)
        let (read, corrections) = Settings.decodeCorrecting(members: members)
        #expect(read.autoShow == nil)
        #expect(corrections.map(\.description) == [#""autoShow" "yes" has the wrong type (true or false), using the default (on)"#])
    }
}
