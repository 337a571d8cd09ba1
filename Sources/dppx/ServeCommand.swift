import ArgumentParser
struct ServeCommand: ParsableCommand { static let configuration = CommandConfiguration(commandName: "serve") }
