#ifndef VERIFIERD_CCURL_SHIM_H
#define VERIFIERD_CCURL_SHIM_H

#include <curl/curl.h>
#include <stddef.h>

/// Asked before every connection libcurl opens, with the address it is about to connect to (after its own name
/// resolution): 1 allows the connection, 0 refuses it. `address` holds 4 (IPv4) or 16 (IPv6) bytes.
typedef int (*vd_destination_check)(void *context, const unsigned char *address, int length, int port);
/// Receives body or header bytes; returns the count taken (anything else aborts the transfer).
typedef size_t (*vd_bytes_sink)(void *context, const char *bytes, size_t length);

/// What the callbacks of one transfer report to: the Swift object behind `context` and its three functions.
typedef struct vd_transfer_callbacks {
    void *context;
    vd_destination_check destination;
    vd_bytes_sink body;
    vd_bytes_sink header;
} vd_transfer_callbacks;

/// curl_global_init(CURL_GLOBAL_DEFAULT), once per process (later calls only count references).
CURLcode vd_curl_global_init(void);

/// The non-variadic forms of curl_easy_setopt and curl_easy_getinfo that Swift can call.
CURLcode vd_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode vd_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode vd_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode vd_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode vd_curl_getinfo_string(CURL *handle, CURLINFO info, char **value);

/// Installs the open-socket, write and header callbacks, which forward to `callbacks` (kept alive by the caller for
/// the whole transfer). The open-socket callback checks each address libcurl connects to, so the check applies to the
/// address actually used, not to a separate lookup.
CURLcode vd_curl_install_callbacks(CURL *handle, vd_transfer_callbacks *callbacks);

/// The next finished transfer of `multi`: 1 with its easy handle and result, 0 when none is left.
int vd_curl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result);

#endif
