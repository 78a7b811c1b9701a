// The system OpenSSL (libssl-dev) for the server's TLS listener, plus small helpers for what Swift cannot call
// directly: OpenSSL's function-like macros (SSL_CTX_ctrl wrappers), callbacks, and PEM loading from memory.
#ifndef VERIFIERD_COPENSSL_SHIM_H
#define VERIFIERD_COPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>

/// TLS 1.2 suites allowed: ECDHE key exchange with AEAD ciphers only (TLS 1.3 suites are all AEAD).
#define VD_TLS12_CIPHERS "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:" \
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:" \
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

/// Offers "http/1.1" when the client lists it; a client that offers ALPN without it gets a fatal alert, one without
/// ALPN is served HTTP/1.1 all the same.
static int vd_tls_alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                              const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    static const unsigned char http11[] = { 8, 'h', 't', 't', 'p', '/', '1', '.', '1' };
    unsigned char *selected = NULL;
    unsigned char selectedLength = 0;
    if (SSL_select_next_proto(&selected, &selectedLength, http11, sizeof(http11), in, inlen)
            == OPENSSL_NPN_NEGOTIATED) {
        *out = selected;
        *outlen = selectedLength;
        return SSL_TLSEXT_ERR_OK;
    }
    return SSL_TLSEXT_ERR_ALERT_FATAL;
}

/// Client certificates are requested but never fail the handshake: routes that need one check the verification
/// result themselves, so a public route still answers a client with a foreign certificate.
static int vd_tls_accept_any_client_certificate(int preverified, X509_STORE_CTX *store) {
    (void)preverified; (void)store;
    return 1;
}

/// A server context with the fixed policy: minimum version, ECDHE+AEAD suites for TLS 1.2, no renegotiation, no
/// compression, server suite preference, no server-side session cache (stateless tickets only), ALPN http/1.1.
/// Returns NULL on failure (the error queue says why).
static inline SSL_CTX *vd_tls_server_context(int minimumVersion, long ticketLifetimeSeconds) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (ctx == NULL) return NULL;
    if (SSL_CTX_set_min_proto_version(ctx, minimumVersion) != 1
            || SSL_CTX_set_cipher_list(ctx, VD_TLS12_CIPHERS) != 1
            || SSL_CTX_set1_groups_list(ctx, "X25519:P-256:P-384") != 1) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
                     | SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"verifierd", 9);
    SSL_CTX_set_timeout(ctx, ticketLifetimeSeconds);
    SSL_CTX_set_alpn_select_cb(ctx, vd_tls_alpn_select, NULL);
    return ctx;
}

/// Loads a PEM certificate chain (leaf first) from memory into the context. Returns the number of certificates
/// loaded, 0 if none was found, -1 on a PEM or OpenSSL error.
static inline int vd_tls_use_certificate_chain(SSL_CTX *ctx, const void *pem, int length) {
    BIO *bio = BIO_new_mem_buf(pem, length);
    if (bio == NULL) return -1;
    int count = 0;
    for (;;) {
        X509 *cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
        if (cert == NULL) {
            unsigned long err = ERR_peek_last_error();
            if (ERR_GET_LIB(err) == ERR_LIB_PEM && ERR_GET_REASON(err) == PEM_R_NO_START_LINE) {
                ERR_clear_error();
                break;
            }
            BIO_free(bio);
            return -1;
        }
        int ok = count == 0 ? SSL_CTX_use_certificate(ctx, cert) : (int)SSL_CTX_add0_chain_cert(ctx, cert);
        if (count == 0) X509_free(cert);  // use_certificate takes its own reference; add0 takes ours
        if (ok != 1) {
            if (count != 0) X509_free(cert);
            BIO_free(bio);
            return -1;
        }
        count += 1;
    }
    BIO_free(bio);
    return count;
}

/// Loads a PEM private key (PKCS#8, SEC1 or PKCS#1, unencrypted) from memory and checks that it matches the
/// certificate. Returns 1 on success, 0 when no key could be read, -1 when it does not match.
static inline int vd_tls_use_private_key(SSL_CTX *ctx, const void *pem, int length) {
    BIO *bio = BIO_new_mem_buf(pem, length);
    if (bio == NULL) return 0;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, NULL, (void *)"");
    BIO_free(bio);
    if (key == NULL) return 0;
    int ok = SSL_CTX_use_PrivateKey(ctx, key);
    EVP_PKEY_free(key);
    if (ok != 1) return -1;
    return SSL_CTX_check_private_key(ctx) == 1 ? 1 : -1;
}

/// Requests client certificates that chain to the PEM CA bundle in `file`, without making them mandatory.
/// Returns 1 on success.
static inline int vd_tls_request_client_certificates(SSL_CTX *ctx, const char *file) {
    if (SSL_CTX_load_verify_locations(ctx, file, NULL) != 1) return 0;
    STACK_OF(X509_NAME) *names = SSL_load_client_CA_file(file);
    if (names == NULL) return 0;
    SSL_CTX_set_client_CA_list(ctx, names);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_CLIENT_ONCE, vd_tls_accept_any_client_certificate);
    SSL_CTX_set_verify_depth(ctx, 4);
    // A resumed session keeps the peer certificate and its verification result, so tickets stay on.
    return 1;
}

/// The serial number of the context's certificate as lower-case hex into `out` (NUL-terminated); 0 on failure.
static inline int vd_tls_certificate_serial(SSL_CTX *ctx, char *out, int capacity) {
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    if (cert == NULL) return 0;
    BIGNUM *bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), NULL);
    if (bn == NULL) return 0;
    char *hex = BN_bn2hex(bn);
    BN_free(bn);
    if (hex == NULL) return 0;
    int ok = (int)strlen(hex) < capacity;
    if (ok) {
        for (int i = 0; hex[i] != 0; i++) out[i] = (hex[i] >= 'A' && hex[i] <= 'F') ? (char)(hex[i] + 32) : hex[i];
        out[strlen(hex)] = 0;
    }
    OPENSSL_free(hex);
    return ok;
}

/// The context certificate's notAfter as seconds since 1970; 0 on failure.
static inline long long vd_tls_certificate_not_after(SSL_CTX *ctx) {
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    if (cert == NULL) return 0;
    struct tm tm;
    if (ASN1_TIME_to_tm(X509_get0_notAfter(cert), &tm) != 1) return 0;
    return (long long)timegm(&tm);
}

/// The peer's certificate subject (RFC 2253) into `out`, and whether it chained to the configured client CA.
/// Returns 1 when the peer sent a certificate, 0 otherwise.
static inline int vd_tls_peer_certificate(SSL *ssl, char *out, int capacity, int *verified) {
    X509 *cert = SSL_get0_peer_certificate(ssl);
    *verified = 0;
    if (cert == NULL) return 0;
    *verified = SSL_get_verify_result(ssl) == X509_V_OK;
    out[0] = 0;
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return 1;
    if (X509_NAME_print_ex(bio, X509_get_subject_name(cert), 0, XN_FLAG_RFC2253) >= 0) {
        int n = BIO_read(bio, out, capacity - 1);
        out[n > 0 ? n : 0] = 0;
    }
    BIO_free(bio);
    return 1;
}

/// The next error in the thread's OpenSSL error queue as text (empty when none), clearing the queue.
static inline void vd_tls_error_text(char *out, size_t capacity) {
    unsigned long err = ERR_get_error();
    out[0] = 0;
    if (err != 0) ERR_error_string_n(err, out, capacity);
    ERR_clear_error();
}

#endif
