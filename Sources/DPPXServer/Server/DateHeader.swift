/// The `Date` field of a connection's answers, formatted once a second rather than per answer.
struct DateHeader {
    private var second = -1
    private var text = ""

    /// The value for an answer written now.
    mutating func now() -> String {
        value(at: HTTPDate.now())
    }

    /// The value for an answer written during `second` (whole seconds since 1970 UTC).
    mutating func value(at second: Int) -> String {
        if second != self.second {
            self.second = second
            text = HTTPDate.format(second)
        }
        return text
    }
}
