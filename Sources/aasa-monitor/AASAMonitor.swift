import ArgumentParser

@main
struct AASAMonitor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa-monitor",
        abstract: "Watch Apple's apple-app-site-association and Android's assetlinks.json files for your domains and apps: crawl, validate, alert, and show it all on a dashboard.",
        version: "0.1.0",
        subcommands: [
            // Each subcommand lives in Commands/<Name>.swift.
            Validate.self,
            Check.self,
            Serve.self,
            User.self,
            Token.self,
            Migrate.self,
            Match.self,
            Diff.self,
            Channel.self,
            Worker.self,
            Status.self,
            CheckNow.self,
            Pause.self,
            Resume.self,
            Import.self,
            Apply.self,
            Export.self,
            VerifyApp.self,
            App.self,
        ]
    )
}
