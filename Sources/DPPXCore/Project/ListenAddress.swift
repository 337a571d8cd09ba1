/// The address `dppx serve` listens on, as `--host` or `[serve] host` names it: whether it
/// keeps the server on this machine.
public enum ListenAddress {
    /// This machine only: the default.
    public static let loopback = "127.0.0.1"

    /// True for an address only this machine reaches: `localhost`, `127.x.y.z` (IPv4's whole
    /// loopback block) and `::1` (bracketed or not). Anything else, `0.0.0.0` and `::` first,
    /// is reachable from other machines.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && (Int(part) ?? 256) <= 255
        }
    }
}
