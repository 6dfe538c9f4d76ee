/// The driver as a receipt names them: a first name and the car.
public struct Driver: Hashable, Sendable {
    public let firstName: String
    public let vehicle: Vehicle?

    public init(firstName: String, vehicle: Vehicle?) {
        self.firstName = firstName
        self.vehicle = vehicle
    }
}

/// The car of a trip.
public struct Vehicle: Hashable, Sendable {
    public let make: String
    public let model: String
    public let color: String
    public let plate: String

    public init(make: String, model: String, color: String, plate: String) {
        self.make = make
        self.model = model
        self.color = color
        self.plate = plate
    }
}
