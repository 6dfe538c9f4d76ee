import TripHistoryDomain

/// The words of a receipt in one language: the fare's line kinds, the money after the ride, the payment
/// methods and the headings of the printable page. Kept in code beside `LocalizedText`, for the same reasons.
struct ReceiptText: Sendable {
    /// The headings and row names of the printable page.
    let labels: ReceiptLabels
    /// One label per `FareLineKind`, in `FareLineKind.allCases` order.
    private let lineLabels: [String]
    let fare: String
    let tips: String
    let refunds: String
    let corrections: String
    let total: String
    let card: String
    let cash: String
    let wallet: String

    func label(_ kind: FareLineKind) -> String {
        lineLabels[FareLineKind.allCases.firstIndex(of: kind) ?? 0]
    }

    func method(_ method: PaymentMethod) -> String {
        switch method {
        case .card: card
        case .cash: cash
        case .wallet: wallet
        }
    }

    static func forLocale(_ locale: SupportedLocale) -> ReceiptText {
        switch locale {
        case .enUS, .enGB:
            ReceiptText(
                labels: ReceiptLabels(
                    title: "Receipt", charges: "Charges", payment: "Payment", trip: "Trip", date: "Date",
                    from: "From", to: "To", distance: "Distance", duration: "Duration", driver: "Driver",
                    vehicle: "Vehicle"),
                lineLabels: ["Base fare", "Distance", "Time", "Surge", "Booking fee", "Tolls", "Taxes", "Promotion"],
                fare: "Fare", tips: "Tips", refunds: "Refunds", corrections: "Fare corrections", total: "Total",
                card: "Card", cash: "Cash", wallet: "Wallet")
        case .frFR:
            ReceiptText(
                labels: ReceiptLabels(
                    title: "Reçu", charges: "Détail du prix", payment: "Paiement", trip: "Trajet", date: "Date",
                    from: "Départ", to: "Arrivée", distance: "Distance", duration: "Durée", driver: "Chauffeur",
                    vehicle: "Véhicule"),
                lineLabels: [
                    "Prix de base", "Distance", "Temps", "Majoration", "Frais de réservation", "Péages", "Taxes",
                    "Promotion",
                ],
                fare: "Course", tips: "Pourboires", refunds: "Remboursements", corrections: "Corrections du prix",
                total: "Total", card: "Carte", cash: "Espèces", wallet: "Portefeuille")
        case .deDE:
            ReceiptText(
                labels: ReceiptLabels(
                    title: "Beleg", charges: "Preisaufstellung", payment: "Zahlung", trip: "Fahrt", date: "Datum",
                    from: "Von", to: "Nach", distance: "Strecke", duration: "Dauer", driver: "Fahrer",
                    vehicle: "Fahrzeug"),
                lineLabels: [
                    "Grundpreis", "Strecke", "Zeit", "Zuschlag", "Buchungsgebühr", "Maut", "Steuern", "Rabatt",
                ],
                fare: "Fahrpreis", tips: "Trinkgeld", refunds: "Erstattungen", corrections: "Preiskorrekturen",
                total: "Gesamt", card: "Karte", cash: "Bargeld", wallet: "Wallet")
        case .jaJP:
            ReceiptText(
                labels: ReceiptLabels(
                    title: "領収書", charges: "料金の内訳", payment: "お支払い", trip: "乗車", date: "日時",
                    from: "乗車地", to: "降車地", distance: "距離", duration: "所要時間", driver: "ドライバー",
                    vehicle: "車両"),
                lineLabels: ["基本料金", "距離料金", "時間料金", "混雑時料金", "予約手数料", "通行料", "税金", "割引"],
                fare: "運賃", tips: "チップ", refunds: "返金", corrections: "運賃の訂正", total: "合計",
                card: "カード", cash: "現金", wallet: "ウォレット")
        case .esES:
            ReceiptText(
                labels: ReceiptLabels(
                    title: "Recibo", charges: "Desglose", payment: "Pago", trip: "Viaje", date: "Fecha",
                    from: "Origen", to: "Destino", distance: "Distancia", duration: "Duración", driver: "Conductor",
                    vehicle: "Vehículo"),
                lineLabels: [
                    "Tarifa base", "Distancia", "Tiempo", "Tarifa dinámica", "Tarifa de reserva", "Peajes",
                    "Impuestos", "Promoción",
                ],
                fare: "Tarifa", tips: "Propinas", refunds: "Reembolsos", corrections: "Correcciones de tarifa",
                total: "Total", card: "Tarjeta", cash: "Efectivo", wallet: "Monedero")
        }
    }
}
