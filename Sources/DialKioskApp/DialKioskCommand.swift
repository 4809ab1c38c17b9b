import ArgumentParser
import KioskReporting

/// The `dialkiosk` command line. With no subcommand it runs the dial (`dialkiosk run`).
package struct DialKioskCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "dialkiosk",
        abstract: "A rotary dial menu for Linux touchscreens, drawn straight to DRM/KMS.",
        version: DialKioskVersion.string,
        subcommands: [
            RunCommand.self,
            PreviewCommand.self,
            SimulateCommand.self,
            RenderCommand.self,
            SplashCommand.self,
            BenchCommand.self,
            ListOutputsCommand.self,
            ListInputsCommand.self,
            CheckConfigCommand.self,
            ConfigCommand.self,
            LockCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )

    package init() {}
}
