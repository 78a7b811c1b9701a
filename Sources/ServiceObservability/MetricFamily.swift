import Prometheus

/// Every metric family `/metrics` exposes, with its type and help text: the one table the `# HELP` lines come from.
/// A family made from anything else has no help, so ``ServiceMetrics`` makes every metric through this table.
/// README's "Health and metrics" table documents the same names.
public enum MetricFamily: String, CaseIterable, Sendable {
    case httpRequests = "verifierd_http_requests_total"
    case httpRequestDuration = "verifierd_http_request_duration_seconds"
    case verifications = "verifierd_verifications_total"
    case verificationDuration = "verifierd_verification_duration_seconds"
    case statusListFetches = "verifierd_status_list_fetches_total"
    case statusListCacheHits = "verifierd_status_list_cache_hits_total"
    case statusListStaleAnswers = "verifierd_status_list_stale_answers_total"
    case statusListAge = "verifierd_status_list_age_seconds"
    case statusListCacheBytes = "verifierd_status_list_cache_bytes"
    case statusListCacheLists = "verifierd_status_list_cache_lists"
    case loteSequence = "verifierd_lote_sequence_number"
    case loteAge = "verifierd_lote_age_seconds"
    case loteNextUpdateMargin = "verifierd_lote_next_update_margin_seconds"
    case loteAnchors = "verifierd_lote_anchors"
    case loteRefreshes = "verifierd_lote_refreshes_total"
    case crlFetches = "verifierd_crl_fetches_total"
    case crlCacheHits = "verifierd_crl_cache_hits_total"
    case crlStaleAnswers = "verifierd_crl_stale_answers_total"
    case crlCacheBytes = "verifierd_crl_cache_bytes"
    case crlCacheCRLs = "verifierd_crl_cache_crls"
    case sessionBytes = "verifierd_session_bytes"
    case sessions = "verifierd_sessions_total"
    case integratorRequests = "verifierd_integrator_requests_total"
    case readerTokens = "verifierd_reader_tokens_total"
    case tlsCertificateExpiry = "verifierd_tls_certificate_expiry_days"
    case tlsReloadFailures = "verifierd_tls_reload_failures_total"
    case registrationCertificateExpiry = "verifierd_registration_certificate_expiry_seconds"
    case trustAnchors = "verifierd_trust_anchors"
    case trustAnchorSoonestExpiry = "verifierd_trust_anchor_soonest_expiry_seconds"
    case trustDirectoryLoads = "verifierd_trust_directory_loads"
    case vicalAge = "verifierd_vical_age_seconds"
    case vicalNextUpdateMargin = "verifierd_vical_next_update_margin_seconds"
    case vicalRefreshes = "verifierd_vical_refreshes_total"
    case appleEnvelopesOpened = "verifierd_apple_envelopes_opened_total"
    case webhookAttempts = "verifierd_webhook_attempts_total"
    case webhookDeliveryLatency = "verifierd_webhook_delivery_latency_seconds"
    case webhookOutboxPending = "verifierd_webhook_outbox_pending"
    case webhookOutboxOldestAge = "verifierd_webhook_outbox_oldest_age_seconds"
    case processCPUSeconds = "process_cpu_seconds_total"
    case processResidentMemory = "process_resident_memory_bytes"
    case processVirtualMemory = "process_virtual_memory_bytes"
    case processOpenFDs = "process_open_fds"
    case processMaxFDs = "process_max_fds"
    case processStartTime = "process_start_time_seconds"

    /// The family's name at `/metrics`.
    public var name: String { rawValue }

    /// The `# TYPE` keyword: `counter`, `gauge` or `histogram`.
    public var type: String {
        switch self {
        case .httpRequests, .verifications, .statusListFetches, .statusListCacheHits, .statusListStaleAnswers, .crlFetches, .crlCacheHits,
             .crlStaleAnswers, .loteRefreshes,
             .sessions, .integratorRequests, .readerTokens, .tlsReloadFailures, .vicalRefreshes, .processCPUSeconds,
             .appleEnvelopesOpened, .webhookAttempts:
            "counter"
        case .httpRequestDuration, .verificationDuration, .webhookDeliveryLatency:
            "histogram"
        case .statusListAge, .statusListCacheBytes, .statusListCacheLists, .crlCacheBytes, .crlCacheCRLs, .sessionBytes,
             .tlsCertificateExpiry, .registrationCertificateExpiry, .trustAnchors, .trustAnchorSoonestExpiry, .trustDirectoryLoads,
             .loteSequence, .loteAge, .loteNextUpdateMargin, .loteAnchors,
             .vicalAge, .vicalNextUpdateMargin, .processResidentMemory, .processVirtualMemory, .processOpenFDs,
             .processMaxFDs, .processStartTime, .webhookOutboxPending, .webhookOutboxOldestAge:
            "gauge"
        }
    }

    /// The `# HELP` text: one line, no backslash.
    public var help: String {
        switch self {
        case .httpRequests: "HTTP requests answered, by route pattern, method and status code."
        case .httpRequestDuration: "Time taken to answer an HTTP request, by route pattern."
        case .verifications: "Verifications by endpoint and outcome (verified, or the failure code)."
        case .verificationDuration: "Time taken by a verification, by endpoint."
        case .statusListFetches: "Status list fetches by outcome (ok, failed)."
        case .statusListCacheHits: "Status list lookups answered from a fresh cached list."
        case .statusListStaleAnswers: "Status list lookups answered from a stale cached list because the refetch failed."
        case .statusListAge: "Age of the cached status list behind the latest cached or stale answer."
        case .statusListCacheBytes: "Bytes the cached status lists hold (inflated), within status.cacheMaxBytes."
        case .statusListCacheLists: "Status lists in the cache."
        case .loteSequence: "LoTESequenceNumber of each list of trusted entities in force, by source."
        case .loteAge: "Age of each list of trusted entities in force since its ListIssueDateTime, by source."
        case .loteNextUpdateMargin: "Seconds until each list of trusted entities in force reaches its NextUpdate (negative: overdue), by source."
        case .loteAnchors: "Anchors each list of trusted entities in force grants, by source."
        case .loteRefreshes: "Scheduled refreshes of lists of trusted entities by source and outcome."
        case .crlFetches: "CRL fetches by outcome (ok, or the CRL_* code of a fetch that gave no usable CRL)."
        case .crlCacheHits: "CRL lookups answered from a kept CRL before its nextUpdate."
        case .crlStaleAnswers: "CRL lookups answered from a CRL past its nextUpdate within crl.staleGraceSeconds because the refetch failed."
        case .crlCacheBytes: "DER bytes of the kept CRLs, within crl.cacheMaxBytes."
        case .crlCacheCRLs: "CRLs kept."
        case .sessionBytes: "Payload bytes the live sessions hold in memory, within web.maxSessionBytes (memory store only)."
        case .sessions: "One-time records (sessions, nonces) by kind and store event."
        case .integratorRequests: "Create and verify requests by integrator and status class."
        case .readerTokens: "Reader token requests by outcome (minted, or the error code)."
        case .tlsCertificateExpiry: "Days until the served TLS certificate expires (negative once expired)."
        case .tlsReloadFailures: "TLS reloads refused; the certificate in force stayed."
        case .trustAnchors: "Trusted IACA roots in the set in force."
        case .trustAnchorSoonestExpiry: "Seconds until the soonest-expiring trusted IACA expires; 0 with no anchor."
        case .trustDirectoryLoads: "1 when the trust directory loads, 0 when it does not (the set in force stays)."
        case .vicalAge: "Age of each VICAL in force since its date, by source."
        case .vicalNextUpdateMargin: "Seconds until each VICAL in force reaches its nextUpdate (negative: overdue), by source."
        case .vicalRefreshes: "Scheduled VICAL refreshes by source and outcome."
        case .appleEnvelopesOpened: "Apple envelopes opened, by the pkRHash of the merchant key that opened them (an idle key stops counting)."
        case .webhookAttempts: "Webhook delivery attempts by integrator and outcome (delivered, failed, abandoned, enqueued, outbox_full, outbox_unavailable)."
        case .webhookDeliveryLatency: "Time from a wallet's answer to its webhook's acknowledged delivery, retries included."
        case .webhookOutboxPending: "Webhook messages waiting in the outbox (all replicas with the database)."
        case .webhookOutboxOldestAge: "Age of the oldest webhook message waiting in the outbox; 0 when none waits."
        case .registrationCertificateExpiry: "Seconds until each integrator's registration certificate expires (negative: expired), by integrator."
        case .processCPUSeconds: "User and system CPU time spent by the process, in seconds."
        case .processResidentMemory: "Resident memory size of the process, in bytes."
        case .processVirtualMemory: "Virtual memory size of the process, in bytes."
        case .processOpenFDs: "Open file descriptors of the process."
        case .processMaxFDs: "Most file descriptors the process may open (the soft RLIMIT_NOFILE)."
        case .processStartTime: "Start time of the process since the Unix epoch, in seconds."
        }
    }

    /// What swift-prometheus makes a metric of this family from; its help text becomes the `# HELP` line.
    public var descriptor: MetricNameDescriptor {
        MetricNameDescriptor(metricName: rawValue, unitName: "", helpText: help)
    }
}
