import TrustLists
import TrustManagement
import TrustStore

extension ServiceProblem {
    /// The answer to a refused trust change: 400 for a bad certificate, 409 for a conflict with the set in force,
    /// 422 for a VICAL that does not verify, 503 when the shared store cannot be reached.
    init(_ error: TrustChangeError) {
        switch error {
        case .invalid(let reason): self = ServiceProblem(.badRequest, "INVALID_IACA", reason)
        case .unparsable(let reason): self = ServiceProblem(.badRequest, "IACA_UNPARSABLE", reason)
        case .duplicate: self = ServiceProblem(.badRequest, "IACA_DUPLICATE", error.description)
        case .alreadyPresent: self = ServiceProblem(.conflict, "IACA_ALREADY_TRUSTED", error.description)
        case .wouldBeEmpty: self = ServiceProblem(.conflict, "TRUST_SET_WOULD_BE_EMPTY", error.description)
        case .vical(let vical): self = ServiceProblem(.unprocessableContent, vical.code.rawValue, vical.detail)
        case .lote(let lote): self = ServiceProblem(.unprocessableContent, lote.code.rawValue, lote.detail)
        case .notFound: self = ServiceProblem(.notFound, "IACA_NOT_FOUND", error.description)
        case .storage: self = ServiceProblem(.internalServerError, "TRUST_STORAGE_FAILED", error.description)
        case .unavailable(let reason): self = SessionGate.storeUnavailable(reason)
        }
    }
}
