import Foundation

/// HTTP dates (`Last-Modified`, `If-Modified-Since`), in whole seconds since 1970 UTC, without
/// Foundation's date formatters: this runs on every file response.
enum HTTPDate {
    /// Whole seconds since 1970 now, for the `Date` header.
    static func now() -> Int {
        Int(Date().timeIntervalSince1970.rounded(.down))
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The IMF-fixdate form RFC 9110 requires senders to use: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ seconds: Int) -> String {
        let date = civil(seconds)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        // 1970-01-01 was a Thursday.
        let weekday = ((days % 7) + 7 + 4) % 7
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[weekday]), \(two(date.day)) \(months[date.month - 1]) \(date.year) "
            + "\(two(date.hour)):\(two(date.minute)):\(two(date.second)) GMT"
    }

    /// The UTC calendar date and time of `seconds` since 1970.
    static func civil(_ seconds: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = date(daysSince1970: days)
        return (year, month, day, time / 3_600, time / 60 % 60, time % 60)
    }

    /// Seconds since 1970 for any of the three forms RFC 9110 asks recipients to accept
    /// (IMF-fixdate, RFC 850, asctime); nil for anything else.
    static func parse(_ text: String) -> Int? {
        guard text.utf8.count <= 64 else { return nil }
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" })
        var fields: (day: Substring, month: Substring, year: Substring, time: ArraySlice<Substring>)
        if tokens.count == 8, tokens[7] == "GMT" {
            fields = (tokens[1], tokens[2], tokens[3], tokens[4...6])          // IMF-fixdate, RFC 850
        } else if tokens.count == 7 {
            fields = (tokens[2], tokens[1], tokens[6], tokens[3...5])          // asctime
        } else {
            return nil
        }
        guard let monthIndex = months.firstIndex(where: { $0 == fields.month }),
              let dayNumber = Int(fields.day), (1...31).contains(dayNumber),
              var yearNumber = Int(fields.year), fields.year.count == 4 || fields.year.count == 2
        else { return nil }
        let time = fields.time.compactMap { Int($0) }
        guard time.count == 3, (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        if fields.year.count == 2 { yearNumber += yearNumber < 70 ? 2000 : 1900 }
        let days = daysSince1970(year: yearNumber, month: monthIndex + 1, day: dayNumber)
        return days * 86_400 + time[0] * 3_600 + time[1] * 60 + time[2]
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's algorithm, the
    /// inverse of `daysSince1970`): no C calendar call, the same on every platform.
    private static func date(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
