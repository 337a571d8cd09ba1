import ArgumentParser
struct HTMLCommand: ParsableCommand { static let configuration = CommandConfiguration(commandName: "html") }
