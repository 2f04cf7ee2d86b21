import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync

struct Delete: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "delete", abstract: help(.helpCommandDelete), aliases: ["rm"])
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let task = try context.session.delete(.typed(id))
        context.output.line(
            output.json
                ? TaskJSON.object(task, today: context.environment.today, now: context.environment.now())
                : context.sentences.deleted(task))
    }
}
