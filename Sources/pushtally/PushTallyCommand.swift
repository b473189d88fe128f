import ArgumentParser

@main
struct PushTallyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushtally",
        abstract: "A self-hosted push delivery analytics collector: sent vs displayed vs opened, per campaign.",
        discussion: """
            Exit codes: 0 ok; 64 bad arguments; 3 not found (campaign, push, token, webhook, alert); \
            4 database or server error; 5 some import lines rejected, or an FCM export file refused.
            """,
        version: BuildVersion.text,
        subcommands: [
            ServeCommand.self, ReportCommand.self, RateCommand.self, PushesCommand.self, KeysCommand.self,
            PruneCommand.self, ForgetCommand.self, RollupCommand.self, BackupCommand.self, ExportCommand.self,
            ImportEventsCommand.self, MigrateStoreCommand.self, WebhooksCommand.self, AlertsCommand.self,
            DeviceCommand.self, ImportCommand.self, HealthcheckCommand.self,
        ]
    )
}
