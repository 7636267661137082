import AppModel

/// Where a `--replay` is in its file: the records (validated before launch), the next one to
/// feed, and whether the app quits once they are fed (`--exit-when-done`).
struct ReplayCursor {
    /// The file's records, in order.
    let records: [InputRecord]
    /// Whether the app quits after the last record, once running animations have ended.
    let exitWhenDone: Bool
    /// The index of the next record to feed.
    private(set) var index = 0

    /// A cursor at the first of `records`.
    init(records: [InputRecord], exitWhenDone: Bool) {
        self.records = records
        self.exitWhenDone = exitWhenDone
    }

    /// Whether records are left to feed (while they are, the file is the app's only input).
    var isFeeding: Bool { index < records.count }

    /// The next record's time relative to the file's first record, which is time zero.
    var nextTime: Duration { .milliseconds(Int64(records[index].t - records[0].t)) }

    /// Takes the next record.
    mutating func next() -> InputRecord {
        defer { index += 1 }
        return records[index]
    }
}
