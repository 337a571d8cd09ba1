/// Bytes `range` of the file at `path` (absolute), as it was when `file` was read from it: the
/// writer sends them only while the file is still that version.
struct FileSlice {
    let path: String
    let file: FileIdentity
    let range: Range<Int>

    /// The whole file.
    init(path: String, file: FileIdentity) {
        self.init(path: path, file: file, range: 0..<file.size)
    }

    init(path: String, file: FileIdentity, range: Range<Int>) {
        self.path = path
        self.file = file
        self.range = range
    }
}
