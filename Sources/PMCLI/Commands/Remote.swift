import ArgumentParser
import FoundationEssentials
import Glibc
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync
import PMViews

/// `pm remote [show | add TARGET | remove]`.
struct Remote: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "remote",
            abstract: help(.helpCommandRemote), subcommands: [RemoteShow.self, RemoteAdd.self, RemoteRemove.self],
            defaultSubcommand: RemoteShow.self)
    }
}

struct RemoteShow: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "show", abstract: help(.helpCommandRemoteShow))
    }

    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let state = try context.session.syncState().load()
        guard let text = state.remote else {
            context.output.line(context.localizer.string(.remoteNone))
            return
        }
        let target = context.session.remoteTarget(text, kind: state.remoteKind)
        context.output.line(
            context.localizer.string(.remoteShow, .text(TextSafety.escaped(text)), .text(context.kindName(target))))
    }
}

struct RemoteAdd: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "add", abstract: help(.helpCommandRemoteAdd))
    }

    @Argument(help: ArgumentHelp(help(.helpRemoteTarget))) var target: String
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let l = context.localizer
        let set = try context.session.setRemote(target)
        let text = MessageArgument.text(TextSafety.escaped(set.text))
        if let old = set.replaced { context.output.line(l.string(.remoteReplaced, .text(TextSafety.escaped(old)))) }
        context.output.line(l.string(.remoteSet, text, .text(context.kindName(set.target))))
        if set.folderCreated { context.output.line(l.string(.remoteFolderCreated, text)) }
        if set.gitMissing {
            context.output.line(l.string(.remoteGitMissing, .text(ShellWord.quoted(TextSafety.escaped(set.text)))))
        }
        // A remote that holds another board: said now, with the two ways on,
        // not only at the next sync's refusal (issue 44, item 15).
        if let (tasks, beside) = set.otherBoard {
            context.output.line(
                l.plural(
                    .remoteOtherBoard, count: tasks, .text(ShellWord.quoted(TextSafety.escaped(set.text))),
                    .text(ShellWord.quoted(TextSafety.escaped(beside)))))
        }
    }
}

struct RemoteRemove: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "remove", abstract: help(.helpCommandRemoteRemove), aliases: ["rm"])
    }

    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        guard let text = try context.session.removeRemote() else {
            context.output.line(context.localizer.string(.remoteNone))
            return
        }
        context.output.line(context.localizer.string(.remoteRemoved, .text(TextSafety.escaped(text))))
    }
}
