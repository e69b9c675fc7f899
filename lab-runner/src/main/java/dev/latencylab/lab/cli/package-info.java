/**
 * ./lab's command line: a class per subcommand, the options several share, the checks of what a user typed, and the
 * console they print to (picocli's writers).
 * <p>
 * LatencyLab; a class per subcommand: RunCommand, SweepCommand, CapacityCommand, ReportCommand, MergeCommand,
 * CompareCommand, HistoryCommand, FootprintCommand, RebuildDocsCommand; LoadShapeOptions (the load's shape, one name
 * on run and sweep), RetiredOptions (old spellings, refused naming their replacement), GatlingOptions,
 * InjectorOptions, TargetOptions, JdkOption, ServiceOptions, ServiceLoadOptions, ResultsOptions, NameOption,
 * LiveOptions, LabelOption (options several commands share; where their help differs by command, it is in
 * SharedOptions under the command's name); SharedOptions (that help, and the sweep presets' defaults its help names,
 * from Preset); Inputs (checks of what a user typed); Console (picocli's writers, where every command prints);
 * OptionsReference (every option as a table, for docs/options.md).
 */
package dev.latencylab.lab.cli;
