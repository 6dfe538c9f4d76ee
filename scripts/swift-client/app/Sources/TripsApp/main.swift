import Foundation
import TripHistoryClient
import TripHistoryListModel

// The app's side of scripts/test-client-by-url: a rider's first page from the live server through the client
// and through the list view model, and a page from the preview transport. One "ok" or "FAIL" line per check;
// exits 1 when any failed.

let environment = ProcessInfo.processInfo.environment
guard let base = environment["TRIPS_APP_BASE_URL"].flatMap(URL.init(string:)),
    let token = environment["TRIPS_APP_TOKEN"], let rider = environment["TRIPS_APP_RIDER"],
    let stored = environment["TRIPS_APP_TRIPS"].flatMap(Int.init)
else {
    print("FAIL  the app's environment (TRIPS_APP_BASE_URL, _TOKEN, _RIDER, _TRIPS)")
    exit(1)
}

var failures = 0

@MainActor func check(_ name: String, _ passed: Bool, _ detail: @autoclosure () -> String = "") {
    print(passed ? "ok    \(name)" : "FAIL  \(name): \(detail())")
    if !passed { failures += 1 }
}

let client = TripHistoryClient(serverURL: base, acceptLanguage: "en-US") { token }
let filter = TripFilter(pageSize: 5)

do {
    let first = try await client.firstPage(rider: rider, filter: filter)
    let trips = first.page.trips
    check(
        "a first page of rider \(rider) from the server (\(trips.count) trips, newest: \(trips.first?.display.title ?? "none"), \(trips.first?.display.date ?? ""))",
        trips.count == min(5, stored) && trips.allSatisfy { $0.riderId == rider } && first.page.hasMore == (stored > 5),
        "\(trips.count) trips, hasMore \(first.page.hasMore), \(stored) stored")
    let again = try await client.firstPage(rider: rider, filter: filter)
    check(
        "the same first page again is a 304", !again.changed && again.page.trips.map(\.id) == trips.map(\.id),
        "changed \(again.changed)")

    let model = TripListViewModel(client: client, rider: rider, filter: filter)
    await model.load()
    guard case .loaded(let shown, canLoadMore: let more) = model.state else {
        check("TripListViewModel loads the first page", false, "state \(model.state)")
        exit(1)
    }
    check(
        "TripListViewModel shows the same first page", shown.map(\.id) == trips.map(\.id) && more == (stored > 5),
        "\(shown.count) trips, canLoadMore \(more)")
    await model.loadMore()
    if case .loaded(let longer, _) = model.state {
        check(
            "TripListViewModel scrolls to the next page (\(longer.count) trips)", longer.count == min(10, stored),
            "\(longer.count) trips")
    } else {
        check("TripListViewModel scrolls to the next page", false, "state \(model.state)")
    }
} catch {
    check("the server's answers", false, "\(error)")
}

do {
    let page = try await TripHistoryClient.preview().page(rider: "1")
    check("a page from the preview transport (\(page.trips.count) trips)", page.trips.count == 20 && page.hasMore)
} catch {
    check("a page from the preview transport", false, "\(error)")
}

exit(failures == 0 ? 0 : 1)
