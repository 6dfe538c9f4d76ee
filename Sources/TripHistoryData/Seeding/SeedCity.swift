/// A city the seeder places trips in, with its prices in the currency's minor unit.
struct SeedCity {
    let name: String
    let timeZone: String
    let currency: String
    let latitudeMicro: Int64
    let longitudeMicro: Int64
    let streets: [String]
    /// Named places; some contain commas and quotes, which COPY must carry through unchanged.
    let landmarks: [String]
    let baseFare: Int64
    let perKilometre: Int64
    let perMinute: Int64
    let minimumFare: Int64
    let cancellationFee: Int64
    /// Typical door-to-door speed in metres per second.
    let speed: Int64

    static let all: [SeedCity] = [
        SeedCity(
            name: "New York", timeZone: "America/New_York", currency: "USD",
            latitudeMicro: 40_712_800, longitudeMicro: -74_006_000,
            streets: ["Broadway", "5th Ave", "Lexington Ave", "W 42nd St", "Park Ave S", "Bleecker St"],
            landmarks: [
                "\"The Met\", 1000 5th Ave", "Grand Central Terminal, 89 E 42nd St", "Joe's Pizza, 7 Carmine St",
            ],
            baseFare: 300, perKilometre: 175, perMinute: 35, minimumFare: 800, cancellationFee: 500, speed: 6),
        SeedCity(
            name: "London", timeZone: "Europe/London", currency: "GBP",
            latitudeMicro: 51_507_400, longitudeMicro: -127_800,
            streets: ["Baker St", "Oxford St", "King's Rd", "Abbey Rd", "Shaftesbury Ave", "Great Portland St"],
            landmarks: [
                "\"The Shard\", 32 London Bridge St", "St Pancras International, Euston Rd",
                "Harrods, 87-135 Brompton Rd",
            ],
            baseFare: 250, perKilometre: 125, perMinute: 20, minimumFare: 600, cancellationFee: 500, speed: 5),
        SeedCity(
            name: "Paris", timeZone: "Europe/Paris", currency: "EUR",
            latitudeMicro: 48_856_600, longitudeMicro: 2_352_200,
            streets: [
                "Rue de Rivoli", "Avenue des Champs-Élysées", "Boulevard Saint-Germain", "Quai d'Orsay",
                "Rue Oberkampf",
            ],
            landmarks: [
                "Café \"Le Procope\", 13 Rue de l'Ancienne Comédie", "Gare du Nord, 18 Rue de Dunkerque",
                "Musée d'Orsay, 1 Rue de la Légion d'Honneur",
            ],
            baseFare: 250, perKilometre: 110, perMinute: 30, minimumFare: 700, cancellationFee: 500, speed: 5),
        SeedCity(
            name: "Berlin", timeZone: "Europe/Berlin", currency: "EUR",
            latitudeMicro: 52_520_000, longitudeMicro: 13_405_000,
            streets: ["Friedrichstraße", "Unter den Linden", "Kurfürstendamm", "Torstraße", "Oranienstraße"],
            landmarks: [
                "Berlin Hauptbahnhof, Europaplatz 1", "\"KaDeWe\", Tauentzienstraße 21-24",
                "Brandenburger Tor, Pariser Platz",
            ],
            baseFare: 390, perKilometre: 200, perMinute: 25, minimumFare: 800, cancellationFee: 500, speed: 6),
        SeedCity(
            name: "Tokyo", timeZone: "Asia/Tokyo", currency: "JPY",
            latitudeMicro: 35_676_200, longitudeMicro: 139_650_300,
            streets: ["Omotesando", "Meiji-dori", "Chuo-dori", "Yasukuni-dori", "Aoyama-dori"],
            landmarks: [
                "Shibuya Station, 2-chome Dogenzaka", "\"Tokyo Tower\", 4-2-8 Shibakoen",
                "Tsukiji Outer Market, 4-16-2 Tsukiji",
            ],
            baseFare: 500, perKilometre: 300, perMinute: 60, minimumFare: 700, cancellationFee: 500, speed: 5),
        SeedCity(
            name: "São Paulo", timeZone: "America/Sao_Paulo", currency: "BRL",
            latitudeMicro: -23_550_500, longitudeMicro: -46_633_300,
            streets: ["Avenida Paulista", "Rua Augusta", "Rua Oscar Freire", "Avenida Brigadeiro Faria Lima"],
            landmarks: [
                "MASP, Avenida Paulista 1578", "Mercado Municipal, Rua da Cantareira 306",
                "Estação da Luz, Praça da Luz 1",
            ],
            baseFare: 350, perKilometre: 150, perMinute: 25, minimumFare: 700, cancellationFee: 600, speed: 5),
        SeedCity(
            name: "Sydney", timeZone: "Australia/Sydney", currency: "AUD",
            latitudeMicro: -33_868_800, longitudeMicro: 151_209_300,
            streets: ["George St", "Pitt St", "Oxford St", "Macquarie St", "Crown St"],
            landmarks: [
                "\"Sydney Opera House\", Bennelong Point", "Central Station, Eddy Ave", "Bondi Icebergs, 1 Notts Ave",
            ],
            baseFare: 350, perKilometre: 160, perMinute: 40, minimumFare: 1000, cancellationFee: 1000, speed: 7),
        SeedCity(
            name: "Mexico City", timeZone: "America/Mexico_City", currency: "MXN",
            latitudeMicro: 19_432_600, longitudeMicro: -99_133_200,
            streets: ["Paseo de la Reforma", "Avenida Insurgentes Sur", "Calle Madero", "Avenida Álvaro Obregón"],
            landmarks: [
                "Palacio de Bellas Artes, Av. Juárez S/N", "\"El Ángel\", Paseo de la Reforma 342",
                "Mercado de Coyoacán, Ignacio Allende 49",
            ],
            baseFare: 1000, perKilometre: 600, perMinute: 150, minimumFare: 4000, cancellationFee: 3500, speed: 5),
    ]
}
