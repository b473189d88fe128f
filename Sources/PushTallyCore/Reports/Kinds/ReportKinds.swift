/// The list of report kinds.
public enum ReportKinds {
    /// Every report, in the order the CLI lists them. A new report is its ``ReportKind`` file and one line here.
    public static let all: [ReportDeclaration] = [
        CampaignsReportKind.declaration,
        CampaignReportKind.declaration,
        PushReportKind.declaration,
        PushesReportKind.declaration,
        TimeseriesReportKind.declaration,
        VersionsReportKind.declaration,
        AttributionReportKind.declaration,
        VariantsReportKind.declaration,
        AudienceReportKind.declaration,
        DevicesReportKind.declaration,
    ]

    /// The report named `name` (a CLI subcommand, a refusal's wording).
    public static func named(_ name: String) -> ReportDeclaration? {
        all.first { $0.name == name }
    }
}
