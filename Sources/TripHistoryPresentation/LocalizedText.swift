import TripHistoryDomain

/// The words of the trip screens in one language: statuses, the title pattern and the distance units.
/// Kept in code because the set is tiny and must not depend on bundle resources on Linux.
struct LocalizedText: Sendable {
    let completed: String
    let canceled: String
    /// Text before and after the destination in a trip's title.
    let titlePrefix: String
    let titleSuffix: String
    /// Text after a number of kilometres and of miles, including the separating space as CLDR's short unit
    /// patterns write it for this language (a no-break space in French, like ICU's `21\u{00A0}min`).
    let kilometreSuffix: String
    let mileSuffix: String

    func status(_ status: TripStatus) -> String {
        switch status {
        case .completed: completed
        case .canceled: canceled
        }
    }

    func title(destination: String) -> String {
        titlePrefix + destination + titleSuffix
    }

    static func forLocale(_ locale: SupportedLocale) -> LocalizedText {
        switch locale {
        case .enUS:
            LocalizedText(
                completed: "Completed", canceled: "Canceled", titlePrefix: "Trip to ", titleSuffix: "",
                kilometreSuffix: " km", mileSuffix: " mi"
            )
        case .enGB:
            // British spelling doubles the l; everything else matches US English.
            LocalizedText(
                completed: "Completed", canceled: "Cancelled", titlePrefix: "Trip to ", titleSuffix: "",
                kilometreSuffix: " km", mileSuffix: " mi"
            )
        case .frFR:
            LocalizedText(
                completed: "Terminé", canceled: "Annulé", titlePrefix: "Trajet vers ", titleSuffix: "",
                kilometreSuffix: "\u{00A0}km", mileSuffix: "\u{00A0}mi"
            )
        case .deDE:
            LocalizedText(
                completed: "Abgeschlossen", canceled: "Storniert", titlePrefix: "Fahrt nach ", titleSuffix: "",
                kilometreSuffix: " km", mileSuffix: " mi"
            )
        case .jaJP:
            LocalizedText(
                completed: "完了", canceled: "キャンセル", titlePrefix: "", titleSuffix: "への乗車",
                kilometreSuffix: " km", mileSuffix: " マイル"
            )
        case .esES:
            LocalizedText(
                completed: "Completado", canceled: "Cancelado", titlePrefix: "Viaje a ", titleSuffix: "",
                kilometreSuffix: " km", mileSuffix: " mi"
            )
        }
    }
}
