import Foundation
import SystemPackage

/// `dppx serve`'s access log: one line per answer, gathered in memory and written in batches by
/// a thread of its own, so that logging costs an answer a few appends under a lock and never a
/// system call on the event loop.
///
/// Lines go into a bounded buffer; the writer thread takes the whole buffer every
/// `flushInterval` (or as soon as it is half full) and writes it with one `write`. When the
/// destination cannot keep up and the buffer is full, new lines are dropped and counted rather
/// than slowing answers down; the count is written to the log and reported (`onProblem`) at the
/// next batch. `reopen()` (SIGHUP) makes the writer close and reopen a log file before its next
/// batch, the way logrotate expects. `close()` writes what is left and stops the thread.
public final class AccessLog: @unchecked Sendable {
    /// Where the lines go.
    public enum Destination: Sendable, Equatable, CustomStringConvertible {
        /// Standard output (the default of `dppx serve`).
        case standardOutput
        /// A file, appended to, created when missing (`--access-log FILE`).
        case file(String)

        public var description: String {
            switch self {
            case .standardOutput: "standard output"
            case .file(let path): path
            }
        }
    }

    /// Why the log could not be opened or written.
    public struct Failure: Error, CustomStringConvertible {
        public let destination: Destination
        public let reason: String
        public var description: String {
            "access log \(destination): \(reason); check that its folder exists and is writable, or leave --access-log out to log to standard output"
        }
    }

    public let destination: Destination
    /// The most bytes of lines held between two batches.
    public let capacity: Int
    /// The longest a line waits before it is written.
    public let flushInterval: Duration
    /// Told, off the event loop, when lines were dropped or a batch could not be written.
    private let onProblem: @Sendable (String) -> Void

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending: [UInt8]
    private var dropped = 0
    private var reopenRequested = false
    private var closing = false
    private var stampSecond = Int.min
    private var stamp: [UInt8] = []
    private var finished = false
    // The writer thread's own.
    private var descriptor: FileDescriptor
    private var writeFailed = false

    /// Opens the destination and starts the writer thread.
    public init(destination: Destination = .standardOutput, capacity: Int = 1 << 20,
                flushInterval: Duration = .milliseconds(100),
                onProblem: @escaping @Sendable (String) -> Void = { _ in }) throws(Failure) {
        self.destination = destination
        self.capacity = max(256, capacity)
        self.flushInterval = flushInterval
        self.onProblem = onProblem
        pending = []
        pending.reserveCapacity(self.capacity)
        descriptor = try Self.open(destination)
        let thread = Thread { [self] in writeLoop() }
        thread.name = "dppx access log"
        thread.start()
    }

    /// Adds one answer's line. Called on the event loop: appends bytes under a lock, nothing more.
    public func record(_ entry: AccessLogEntry) {
        let seconds = HTTPDate.now()
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return }
        if seconds != stampSecond {
            stampSecond = seconds
            stamp = Array(AccessLogEntry.timestamp(seconds).utf8)
        }
        let start = pending.count
        pending.append(contentsOf: stamp)
        pending.append(UInt8(ascii: " "))
        entry.append(to: &pending)
        pending.append(UInt8(ascii: "\n"))
        if pending.count > capacity {
            pending.removeSubrange(start...)
            dropped += 1
            return
        }
        if pending.count >= capacity / 2 { condition.signal() }
    }

    /// Lines dropped since the last batch (the writer reports and resets the count).
    public var droppedSinceLastBatch: Int {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }

    /// Close and reopen a log file before the next batch (after logrotate moved it).
    public func reopen() {
        condition.lock()
        reopenRequested = true
        condition.signal()
        condition.unlock()
    }

    /// Writes every line recorded so far and stops the writer; later lines are ignored.
    public func close() {
        condition.lock()
        closing = true
        condition.signal()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func writeLoop() {
        var batch: [UInt8] = []
        batch.reserveCapacity(capacity)
        let interval = Double(flushInterval.components.seconds) + Double(flushInterval.components.attoseconds) / 1e18
        while true {
            condition.lock()
            if pending.isEmpty, dropped == 0, !reopenRequested, !closing {
                _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
            }
            swap(&batch, &pending)
            let lost = dropped
            dropped = 0
            let reopening = reopenRequested
            reopenRequested = false
            let stopping = closing
            condition.unlock()

            if reopening { reopenFile() }
            if lost > 0 {
                let note = "dppx: \(lost) access-log line\(lost == 1 ? "" : "s") dropped: the log could not keep up\n"
                batch.append(contentsOf: note.utf8)
                onProblem(String(note.dropLast()))
            }
            if !batch.isEmpty { write(batch) }
            batch.removeAll(keepingCapacity: true)
            if stopping {
                if case .file = destination { try? descriptor.close() }
                condition.lock()
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }

    private func write(_ bytes: [UInt8]) {
        do {
            _ = try bytes.withUnsafeBytes { try descriptor.writeAll($0) }
            writeFailed = false
        } catch {
            // Said once per run of failures, not per batch.
            if !writeFailed { onProblem(Failure(destination: destination, reason: "lines could not be written (\(error))").description) }
            writeFailed = true
        }
    }

    private func reopenFile() {
        guard case .file = destination else { return }
        do {
            let reopened = try Self.open(destination)
            try? descriptor.close()
            descriptor = reopened
        } catch {
            onProblem(error.description + " (kept writing to the file it had open)")
        }
    }

    private static func open(_ destination: Destination) throws(Failure) -> FileDescriptor {
        switch destination {
        case .standardOutput:
            return .standardOutput
        case .file(let path):
            do {
                return try FileDescriptor.open(FilePath(path), .writeOnly, options: [.append, .create, .closeOnExec],
                                               permissions: [.ownerReadWrite, .groupRead, .otherRead])
            } catch {
                throw Failure(destination: destination, reason: "cannot be opened (\(error))")
            }
        }
    }
}
