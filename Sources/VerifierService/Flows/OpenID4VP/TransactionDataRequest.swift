import HTTPServer
import OpenID4VP
import StrictJSON

/// A request body's `transaction_data` and `transactionDataReport`, read for the OpenID4VP and presentation routes:
/// the entries in the order and member order the caller wrote them (the body is read again as ordered JSON; the
/// typed body only says whether the member is there), checked and encoded by the library.
enum TransactionDataRequest {
    static func read(_ request: HTTPServerRequest, present: Bool, report: String?, query: DCQLQuery,
                     policy: TransactionDataPolicy) throws(ServiceProblem) -> TransactionData? {
        guard present else {
            guard report == nil else { throw ServiceProblem.invalidRequest("\"transactionDataReport\" goes with \"transaction_data\"") }
            return nil
        }
        let reportsObjects: Bool
        switch report {
        case nil, "hashes"?: reportsObjects = false
        case "objects"?: reportsObjects = true
        default: throw ServiceProblem.invalidRequest("\"transactionDataReport\" is \"hashes\" or \"objects\"")
        }
        guard case .object(let members)? = try? JSONParser.parse(request.body),
              let requested = members.first(where: { $0.0 == "transaction_data" })?.1 else {
            throw ServiceProblem.invalidRequest("\"transaction_data\" could not be read")
        }
        do {
            return try TransactionData(requested: requested, query: query, policy: policy, reportsObjects: reportsObjects)
        } catch {
            throw ServiceProblem(.badRequest, error.kind.rawValue, error.detail)
        }
    }
}
