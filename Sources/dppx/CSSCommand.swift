import ArgumentParser
struct CSSCommand: ParsableCommand { static let configuration = CommandConfiguration(commandName: "css") }
