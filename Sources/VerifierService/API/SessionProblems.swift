import HTTPTypes

/// The answers about one-time records, built in one place: every flow says them with the same status and code, and
/// only its own detail.
extension ServiceProblem {
    /// 404 `SESSION_NOT_FOUND`.
    static func sessionNotFound(_ detail: String = "no such session") -> ServiceProblem {
        ServiceProblem(.notFound, "SESSION_NOT_FOUND", detail)
    }

    /// 409 `SESSION_ALREADY_USED`.
    static func sessionAlreadyUsed(_ detail: String) -> ServiceProblem {
        ServiceProblem(.conflict, "SESSION_ALREADY_USED", detail)
    }

    /// 410 `SESSION_EXPIRED`.
    static func sessionExpired(_ detail: String) -> ServiceProblem {
        ServiceProblem(.gone, "SESSION_EXPIRED", detail)
    }

    /// 500 `SESSION_UNREADABLE`: a stored record that does not read back.
    static func sessionUnreadable(_ detail: String = "the stored session could not be read") -> ServiceProblem {
        ServiceProblem(.internalServerError, "SESSION_UNREADABLE", detail)
    }

    /// 503 `SESSION_STORE_FULL` (the caller adds `Retry-After`).
    static func sessionStoreFull(_ detail: String) -> ServiceProblem {
        ServiceProblem(.serviceUnavailable, "SESSION_STORE_FULL", detail)
    }

    /// 400 `SESSION_TOO_LARGE`.
    static func sessionTooLarge(_ detail: String) -> ServiceProblem {
        ServiceProblem(.badRequest, "SESSION_TOO_LARGE", detail)
    }
}
