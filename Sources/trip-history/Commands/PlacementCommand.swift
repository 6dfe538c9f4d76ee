import ArgumentParser
import TripHistoryDomain

/// `trip-history placement`: prints the logical partition of each rider under the sharded layout, so scripts
/// and tools place riders with the service's own rule (`RiderPlacement`) instead of a copy of it. Hidden: a
/// tool for scripts/test-shards and operators, not part of the documented command set yet.
struct PlacementCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "placement",
        abstract: "Print 'rider_id<TAB>partition' for each rider: hashint8(rider_id) & (partitions - 1).",
        discussion: "Riders come from the arguments, or one per line from standard input when none are given.",
        shouldDisplay: false
    )

    @Option(help: "The number of logical partitions, a power of two.")
    var partitions: Int

    @Argument(help: "Rider ids (positive), or none to read them from standard input.")
    var riders: [String] = []

    func validate() throws {
        guard RiderPlacement(partitions: partitions) != nil else {
            throw ValidationError(
                "--partitions must be a power of two from 1 to \(RiderPlacement.maximumPartitions).")
        }
    }

    func run() throws {
        guard let placement = RiderPlacement(partitions: partitions) else { return }
        var output = ""
        // Each argument or line may hold several ids separated by blanks.
        func place(_ text: String) throws {
            for word in text.split(whereSeparator: \.isWhitespace) {
                guard let rider = RiderID(word) else {
                    throw ValidationError("'\(word)' is not a rider id (a positive 64-bit integer).")
                }
                output += "\(rider.rawValue)\t\(placement.partition(of: rider))\n"
            }
            if output.utf8.count >= 1 << 16 {
                print(output, terminator: "")
                output = ""
            }
        }
        if riders.isEmpty {
            while let line = readLine() { try place(line) }
        } else {
            for rider in riders { try place(rider) }
        }
        print(output, terminator: "")
    }
}
