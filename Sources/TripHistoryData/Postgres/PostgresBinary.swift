/// Decoders for PostgreSQL's binary send form of the column types the repositories read, free of Foundation
/// and allocation. Multi-byte values are big-endian. Each decoder takes the column's type OID and returns nil
/// for a type or length it does not know, so a schema change shows up as a decoding error, never as a
/// misread value. Only types whose binary form decodes to exactly what their text form parses to are
/// accepted (not `real`, whose text is rounded, nor `timestamp` without a zone).
enum PostgresBinary {
    /// Type OIDs of the built-in types (`pg_type.dat`), fixed across PostgreSQL versions.
    enum TypeOID {
        static let bool: UInt32 = 16
        static let name: UInt32 = 19
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let float8: UInt32 = 701
        static let unknown: UInt32 = 705
        static let bpchar: UInt32 = 1042
        static let varchar: UInt32 = 1043
        static let timestamptz: UInt32 = 1184
    }

    /// Microseconds from the Unix epoch to PostgreSQL's, 2000-01-01 00:00 UTC.
    static let postgresEpochMicros: Int64 = 946_684_800_000_000

    static func int64(_ bytes: UnsafeRawBufferPointer, type: UInt32) -> Int64? {
        switch (type, bytes.count) {
        case (TypeOID.int8, 8): Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
        case (TypeOID.int4, 4): Int64(Int32(bigEndian: bytes.loadUnaligned(as: Int32.self)))
        case (TypeOID.int2, 2): Int64(Int16(bigEndian: bytes.loadUnaligned(as: Int16.self)))
        default: nil
        }
    }

    static func double(_ bytes: UnsafeRawBufferPointer, type: UInt32) -> Double? {
        switch (type, bytes.count) {
        case (TypeOID.float8, 8): Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)))
        default: nil
        }
    }

    static func bool(_ bytes: UnsafeRawBufferPointer, type: UInt32) -> Bool? {
        guard type == TypeOID.bool, bytes.count == 1, bytes[0] <= 1 else { return nil }
        return bytes[0] == 1
    }

    /// A `timestamptz` as microseconds since 1970; nil for `infinity` and `-infinity` (sent as the largest and
    /// smallest Int64), as the text parser does.
    static func timestampMicros(_ bytes: UnsafeRawBufferPointer, type: UInt32) -> Int64? {
        guard type == TypeOID.timestamptz, bytes.count == 8 else { return nil }
        let sincePostgresEpoch = Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
        guard sincePostgresEpoch != .max, sincePostgresEpoch != .min else { return nil }
        let (micros, overflow) = sincePostgresEpoch.addingReportingOverflow(postgresEpochMicros)
        return overflow ? nil : micros
    }

    /// Whether the binary form of `type` is its text as UTF-8 (the client encoding), as for the string types.
    static func isText(_ type: UInt32) -> Bool {
        switch type {
        case TypeOID.text, TypeOID.varchar, TypeOID.bpchar, TypeOID.name, TypeOID.unknown: true
        default: false
        }
    }
}
