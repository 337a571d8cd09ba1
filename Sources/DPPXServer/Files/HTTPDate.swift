#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP dates (`Last-Modified`, `If-Modified-Since`), in whole seconds since 1970 UTC, without
/// Foundation's date formatters: this runs on every file response.
enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The IMF-fixdate form RFC 9110 requires senders to use: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
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
