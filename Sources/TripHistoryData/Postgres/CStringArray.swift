/// NUL-terminated copies of strings for C functions that take `const char * const *`, valid only inside
/// the closure.
enum CStringArray {
    static func with<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        var storage: [CChar] = []
        var offsets: [Int] = []
        for string in strings {
            offsets.append(storage.count)
            storage.append(contentsOf: string.utf8.map { CChar(bitPattern: $0) })
            storage.append(0)
        }
        return storage.withUnsafeBufferPointer { buffer in
            // libpq reads the arrays up to a NULL entry.
            var pointers: [UnsafePointer<CChar>?] = offsets.map { buffer.baseAddress! + $0 }
            pointers.append(nil)
            return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }
}
