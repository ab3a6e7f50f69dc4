import Foundation
import PackagePlugin

/// Stamps the build with the commit it was built from: before every build, `scripts/build-info`
/// writes `BuildInfo.swift` (the version and `git describe` of the checkout) into the plugin's
/// folder, rewriting it only when the text changes, so an unchanged checkout rebuilds nothing.
@main
struct BuildInfo: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let out = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
    let package = context.package.directoryURL
    return [
      .prebuildCommand(
        displayName: "Stamping the build with its commit",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: [package.appendingPathComponent("scripts/build-info").path, package.path, out.path],
        outputFilesDirectory: out)
    ]
  }
}
