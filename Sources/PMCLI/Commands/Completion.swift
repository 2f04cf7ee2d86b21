import ArgumentParser
import PMLocalization

/// `pm completion bash|zsh|fish`: the completion script for a shell, on
/// standard output (as gh, kubectl and rustup do): `pm completion bash >
/// ~/.local/share/bash-completion/completions/pm`. The same scripts as the
/// ones shipped in Resources/completions.
struct Completion: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "completion", abstract: help(.helpCommandCompletion))
    }

    enum Shell: String, ExpressibleByArgument, CaseIterable { case bash, zsh, fish }

    @Argument(help: ArgumentHelp(help(.helpShell), valueName: "shell")) var shell: Shell

    func run() throws {
        let scripts = CompletionScripts(root: CommandModel.load())
        let output = Output()
        switch shell {
        case .bash: output.line(scripts.bash())
        case .zsh: output.line(scripts.zsh())
        case .fish: output.line(scripts.fish())
        }
        try output.flush()
    }
}
