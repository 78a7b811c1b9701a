import Foundation
import StrictJSON

/// `TrustedEntityService`: its current `ServiceInformation` and its `ServiceHistory`.
struct LoTEService: Sendable {
    /// One `ServiceHistoryInstance`: an earlier status of the service.
    struct HistoryInstance: Sendable {
        let typeIdentifier: String?
        let status: String
        let statusStartingTime: Date
    }

    let identity: LoTEServiceDigitalIdentity
    /// `ServiceTypeIdentifier`.
    let typeIdentifier: String?
    /// `ServiceStatus` and `StatusStartingTime` (only the Pub-EAA profile uses them).
    let status: String?
    let statusStartingTime: Date?
    let history: [HistoryInstance]

    init(_ json: JSON, at path: String, limits: LoTELimits) throws(LoTEError) {
        let object = try LoTEObject(json, at: path, members: ["ServiceInformation", "ServiceHistory"])
        let information = try object.object("ServiceInformation", members: [
            "ServiceName", "ServiceDigitalIdentity", "ServiceTypeIdentifier", "ServiceStatus", "StatusStartingTime",
            "SchemeServiceDefinitionURI", "ServiceSupplyPoints", "ServiceDefinitionURI", "ServiceInformationExtensions",
        ])
        _ = try information.texts("ServiceName")
        identity = try LoTEServiceDigitalIdentity(try information.value("ServiceDigitalIdentity"),
                                                  at: information.place("ServiceDigitalIdentity"), limits: limits)
        typeIdentifier = try information.optionalURI("ServiceTypeIdentifier")
        status = try information.optionalURI("ServiceStatus")
        statusStartingTime = try information.optionalDateTime("StatusStartingTime")
        _ = try information.optionalURIs("SchemeServiceDefinitionURI")
        _ = try information.optionalEach("ServiceSupplyPoints") { item, place throws(LoTEError) in
            let point = try LoTEObject(item, at: place, members: ["ServiceType", "uriValue"])
            _ = try point.optionalURI("ServiceType")
            _ = try point.uri("uriValue")
        }
        _ = try information.optionalURIs("ServiceDefinitionURI")
        _ = try information.optionalArray("ServiceInformationExtensions")
        history = try object.optionalEach("ServiceHistory", maximum: limits.maximumServicesPerEntity) { item, place throws(LoTEError) in
            let instance = try LoTEObject(item, at: place, members: [
                "ServiceName", "ServiceDigitalIdentity", "ServiceStatus", "StatusStartingTime", "ServiceTypeIdentifier",
                "ServiceInformationExtensions",
            ])
            _ = try instance.texts("ServiceName")
            _ = try LoTEServiceDigitalIdentity(try instance.value("ServiceDigitalIdentity"),
                                               at: instance.place("ServiceDigitalIdentity"), limits: limits)
            let status = try instance.uri("ServiceStatus")
            let starting = try instance.dateTime("StatusStartingTime")
            let type = try instance.optionalURI("ServiceTypeIdentifier")
            _ = try instance.optionalArray("ServiceInformationExtensions")
            return HistoryInstance(typeIdentifier: type, status: status, statusStartingTime: starting)
        } ?? []
    }
}
