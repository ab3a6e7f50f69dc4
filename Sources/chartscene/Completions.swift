import ArgumentParser

/// `chartscene --generate-completion-script SHELL`: argument-parser's script, with the default
/// subcommand made real for bash. argument-parser offers the subcommands wherever the first
/// word is not one (so `chartscene s.lua -o <TAB>` listed `render preset ...`); here the first
/// word is either a subcommand or the script of `render`, which then completes as `render`
/// does (files after `-o`, `day night` after `--theme`, preset names after `--preset`).
enum Completions {
  static func script(for shell: CompletionShell) -> String {
    let generated = ChartSceneCommand.completionScript(for: shell)
    guard shell == .bash else { return generated }
    let subcommands = ChartSceneCommand.configuration.subcommands.map { $0._commandName } + ["help"]
    let stock = """
        *)
            # Offer subcommand completions
            COMPREPLY+=($(compgen -W '\(subcommands.joined(separator: " "))' -- "${cur}"))
            ;;
    """
    let patched = """
        *)
            if [[ "${#unparsed_words[@]}" -gt 0 ]]; then
                # The first word was a script: the default subcommand, render, goes on.
                unparsed_words=("${subcommand}" "${unparsed_words[@]}")
                _chartscene_render
            else
                # The first word: a subcommand, a script, or a flag of render.
                COMPREPLY+=($(compgen -W '\(subcommands.joined(separator: " "))' -- "${cur}"))
                __chartscene_add_completions -o plusdirs -fX '!*.@(lua)'
            fi
            ;;
    """
    guard generated.contains(stock) else { return generated }
    return generated.replacing(stock, with: patched)
  }

  /// The completion script asked for on the command line, if it was: `--generate-completion-script SHELL`.
  static func requested(_ arguments: [String]) -> CompletionShell?? {
    guard arguments.count >= 2 else { return nil }
    if arguments[1] == "--generate-completion-script", arguments.count == 3 { return .some(CompletionShell(rawValue: arguments[2])) }
    if arguments[1].hasPrefix("--generate-completion-script="), arguments.count == 2 {
      return .some(CompletionShell(rawValue: String(arguments[1].dropFirst("--generate-completion-script=".count))))
    }
    return nil
  }
}
