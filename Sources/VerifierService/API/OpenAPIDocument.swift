/// The OpenAPI 3.1 description of every route, served at `/openapi.json`. A test checks that it lists every route
/// the server registers. (Written in JSON; edit here when routes change.)
enum OpenAPIDocument {
    static let json = #"""
{
 "openapi": "3.1.0",
 "info": {
  "title": "verifierd",
  "version": "1.0.0",
  "description": "Server-side verifier for ISO/IEC 18013-5 mobile documents and Apple Wallet \"Verify with Wallet\" responses. Errors are application/problem+json (RFC 9457) with a stable `code`."
 },
 "paths": {
  "/v1/apple/verify": {
   "post": {
    "summary": "Decrypt and verify an APPLE-HPKE-v1 identity response",
    "operationId": "appleVerify",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "encryptedData",
         "nonce"
        ],
        "properties": {
         "encryptedData": {
          "type": "string",
          "description": "base64 (standard or URL-safe, padding optional) of PKIdentityDocument.encryptedData"
         },
         "nonce": {
          "type": "string",
          "description": "base64 of the raw nonce bytes given to PKIdentityRequest (1 to 64 bytes)"
         },
         "merchantId": {
          "type": "string"
         },
         "teamId": {
          "type": "string"
         },
         "verificationTime": {
          "type": "string",
          "format": "date-time",
          "description": "honoured only when verification.allowVerificationTimeOverride is true"
         }
        }
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "verified; claims included",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/VerificationResult"
        }
       }
      }
     },
     "400": {
      "description": "invalid request, ENVELOPE_MALFORMED, ENVELOPE_UNSUPPORTED, NONCE_INVALID, INVALID_BASE64, VERIFICATION_TIME_OVERRIDE_DISABLED, NONCE_UNKNOWN (apple.requireIssuedNonce: not issued, or issued to another integrator or for other merchant or team IDs)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED (with WWW-Authenticate: Bearer): no integrator bearer token, or not a configured one",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "NONCE_ALREADY_USED (apple.requireIssuedNonce): the nonce was consumed by an earlier verification, on any replica",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "410": {
      "description": "NONCE_EXPIRED (apple.requireIssuedNonce)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "not verified: code, message and every check",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/VerificationResult"
        }
       }
      }
     },
     "503": {
      "description": "APPLE_NOT_CONFIGURED; STORE_UNAVAILABLE (with Retry-After) when apple.requireIssuedNonce is set and the store cannot be reached",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    },
    "security": [
     {
      "integratorToken": []
     }
    ]
   }
  },
  "/v1/apple/nonces": {
   "post": {
    "summary": "Issue a single-use nonce for PKIdentityRequest.nonce",
    "description": "Only with apple.requireIssuedNonce (replay protection for Apple answers on): 32 random bytes, kept in the store (shared by every replica with PostgreSQL) until apple.nonceTTLSeconds; /v1/apple/verify then accepts only such nonces, each once, for the integrator, merchant and team IDs it was issued to. Without apple.requireIssuedNonce, 404 APPLE_NONCES_DISABLED.",
    "operationId": "appleNonce",
    "requestBody": {
     "required": false,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "merchantId": {
          "type": "string",
          "description": "apple.merchantId or one of apple.allowedMerchantIds (default apple.merchantId)"
         },
         "teamId": {
          "type": "string",
          "description": "apple.teamId or one of apple.allowedTeamIds (default apple.teamId)"
         }
        }
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "issued",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "nonce",
          "expiresAt"
         ],
         "properties": {
          "nonce": {
           "type": "string",
           "description": "standard base64 of 32 random bytes"
          },
          "expiresAt": {
           "type": "string",
           "format": "date-time"
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "invalid request, MERCHANT_ID_NOT_ALLOWED, TEAM_ID_NOT_ALLOWED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED (with WWW-Authenticate: Bearer): no integrator bearer token, or not a configured one",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "APPLE_NONCES_DISABLED: apple.requireIssuedNonce is off, so no nonce is issued (and /v1/apple/verify takes the app's own nonce, without replay protection)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "429": {
      "description": "INTEGRATOR_QUOTA_EXCEEDED (with Retry-After): this integrator holds its share of open nonces (integrators.maxSessionsPerIntegrator)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "APPLE_NOT_CONFIGURED, SESSION_STORE_FULL (this kind's part of web.maxSessions is used up), STORE_UNAVAILABLE (with Retry-After)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    },
    "security": [
     {
      "integratorToken": []
     }
    ]
   }
  },
  "/v1/apple/session-transcript": {
   "post": {
    "summary": "Build the AppleHandover SessionTranscript and its infoHash",
    "operationId": "appleSessionTranscript",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "nonce"
        ],
        "properties": {
         "nonce": {
          "type": "string"
         },
         "merchantId": {
          "type": "string"
         },
         "teamId": {
          "type": "string"
         },
         "pkRHash": {
          "type": "string",
          "description": "hex; defaults to every configured key"
         }
        }
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "one transcript per recipient key",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "transcripts": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "pkRHash": {
              "type": "string"
             },
             "sessionTranscript": {
              "type": "string",
              "description": "base64"
             },
             "infoHash": {
              "type": "string",
              "description": "hex"
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "invalid request",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED (with WWW-Authenticate: Bearer): no integrator bearer token, or not a configured one",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    },
    "security": [
     {
      "integratorToken": []
     }
    ]
   }
  },
  "/v1/mdoc/verify": {
   "post": {
    "summary": "Verify an ISO 18013-5 DeviceResponse",
    "description": "The SessionTranscript comes from the caller: the device signature (or MAC) then proves only the transcript the caller chose, not that the response belongs to a session of this verifier. The report says so: top-level `sessionTranscriptSource: \"caller\"`, and the device.authentication check's detail.",
    "operationId": "mdocVerify",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "deviceResponse",
         "sessionTranscript"
        ],
        "properties": {
         "deviceResponse": {
          "type": "string",
          "description": "base64 CBOR"
         },
         "sessionTranscript": {
          "type": "string",
          "description": "base64 CBOR (not tag-24 wrapped)"
         },
         "readerPrivateKey": {
          "type": "string",
          "description": "for device MAC: a PEM private key, or the raw scalar as hex or base64 (prefix hex: or base64: to say which; without one, only-hex text of 64, 96 or 132 characters is hex)"
         },
         "verificationTime": {
          "type": "string",
          "format": "date-time"
         }
        }
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "verified",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/VerificationResult"
        }
       }
      }
     },
     "400": {
      "description": "invalid request, SESSION_TRANSCRIPT_MALFORMED, INVALID_READER_KEY",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED (with WWW-Authenticate: Bearer): no integrator bearer token, or not a configured one",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "not verified",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/VerificationResult"
        }
       }
      }
     }
    },
    "security": [
     {
      "integratorToken": []
     }
    ]
   }
  },
  "/v1/admin/iaca": {
   "get": {
    "summary": "List trusted IACA roots",
    "operationId": "listIACA",
    "security": [
     {
      "adminToken": []
     }
    ],
    "responses": {
     "200": {
      "description": "the set in force",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "version": {
           "type": "integer"
          },
          "anchors": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/TrustAnchor"
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "admin API disabled",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   },
   "post": {
    "summary": "Add IACA roots (PEM, one or more, or DER)",
    "operationId": "addIACA",
    "security": [
     {
      "adminToken": []
     }
    ],
    "parameters": [
     {
      "name": "allowExpired",
      "in": "query",
      "schema": {
       "type": "boolean"
      }
     },
     {
      "name": "docType",
      "in": "query",
      "schema": {
       "type": "string"
      },
      "description": "comma-separated docTypes the new anchors may vouch for (default: any)"
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/x-pem-file": {
       "schema": {
        "type": "string"
       }
      },
      "application/pkix-cert": {
       "schema": {
        "type": "string",
        "format": "binary"
       }
      },
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "anchors"
        ],
        "properties": {
         "anchors": {
          "type": "array",
          "items": {
           "type": "object",
           "required": [
            "certificate"
           ],
           "properties": {
            "certificate": {
             "type": "string",
             "description": "PEM, or base64 DER"
            },
            "docTypes": {
             "type": "array",
             "items": {
              "type": "string"
             }
            }
           }
          }
         }
        }
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "added",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "version": {
           "type": "integer"
          },
          "anchors": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/TrustAnchor"
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "INVALID_IACA (not a CA, no keyCertSign, expired), IACA_UNPARSABLE (not a certificate: DER that is not X.509, or PEM that breaks RFC 7468), IACA_DUPLICATE, INVALID_DOC_TYPE",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "IACA_ALREADY_TRUSTED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   },
   "put": {
    "summary": "Replace the whole set in one step (PEM bundle)",
    "operationId": "replaceIACA",
    "security": [
     {
      "adminToken": []
     }
    ],
    "parameters": [
     {
      "name": "allowExpired",
      "in": "query",
      "schema": {
       "type": "boolean"
      }
     },
     {
      "name": "allowEmpty",
      "in": "query",
      "schema": {
       "type": "boolean"
      },
      "description": "allow a set with no anchor"
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/x-pem-file": {
       "schema": {
        "type": "string"
       }
      },
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "anchors"
        ],
        "properties": {
         "anchors": {
          "type": "array",
          "items": {
           "type": "object",
           "required": [
            "certificate"
           ],
           "properties": {
            "certificate": {
             "type": "string",
             "description": "PEM, or base64 DER"
            },
            "docTypes": {
             "type": "array",
             "items": {
              "type": "string"
             }
            }
           }
          }
         }
        }
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "the new set",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "version": {
           "type": "integer"
          },
          "anchors": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/TrustAnchor"
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "INVALID_IACA (not a CA, no keyCertSign, expired), IACA_UNPARSABLE (not a certificate: DER that is not X.509, or PEM that breaks RFC 7468), IACA_DUPLICATE, INVALID_DOC_TYPE",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "TRUST_SET_WOULD_BE_EMPTY",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    },
    "description": "Replaces the manual anchors in one step; anchors imported from VICALs stay."
   }
  },
  "/v1/admin/iaca/{sha256}": {
   "delete": {
    "summary": "Remove an IACA root",
    "operationId": "removeIACA",
    "security": [
     {
      "adminToken": []
     }
    ],
    "parameters": [
     {
      "name": "sha256",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string"
      },
      "description": "lowercase hex SHA-256 of the certificate DER"
     },
     {
      "name": "allowEmpty",
      "in": "query",
      "schema": {
       "type": "boolean"
      },
      "description": "allow removing the last anchor"
     }
    ],
    "responses": {
     "204": {
      "description": "removed"
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "IACA_NOT_FOUND",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "TRUST_SET_WOULD_BE_EMPTY: the last anchor",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/v1/admin/status-cache": {
   "get": {
    "summary": "List the cached revocation status lists",
    "operationId": "statusCache",
    "security": [
     {
      "adminToken": []
     }
    ],
    "responses": {
     "200": {
      "description": "cached lists with their age and freshness",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "lists": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "uri": {
              "type": "string"
             },
             "kind": {
              "type": "string",
              "enum": [
               "statusList",
               "identifierList"
              ]
             },
             "entries": {
              "type": "integer"
             },
             "fetchedAt": {
              "type": "string"
             },
             "ageSeconds": {
              "type": "integer"
             },
             "freshUntil": {
              "type": "string"
             },
             "issuedAt": {
              "type": "string"
             },
             "expiresAt": {
              "type": "string"
             },
             "signerIaca": {
              "type": [
               "string",
               "null"
              ]
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "description": "no or wrong admin token"
     }
    }
   }
  },
  "/v1/admin/iaca/reload": {
   "post": {
    "summary": "Re-read the trust directory",
    "operationId": "reloadIACA",
    "security": [
     {
      "adminToken": []
     }
    ],
    "responses": {
     "200": {
      "description": "the set now in force",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "version": {
           "type": "integer"
          },
          "anchors": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/TrustAnchor"
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "the directory holds an unusable set",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/v1/admin/tls/reload": {
   "post": {
    "summary": "Re-read the HTTPS certificate and key (new handshakes use them; open connections keep theirs)",
    "operationId": "reloadTLS",
    "security": [
     {
      "adminToken": []
     }
    ],
    "responses": {
     "200": {
      "description": "the certificate now served to new handshakes",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "serial": {
           "type": "string",
           "description": "serial number, lower-case hex"
          },
          "notAfter": {
           "type": "string",
           "format": "date-time"
          }
         }
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "403": {
      "description": "CLIENT_CERTIFICATE_REQUIRED (server.tls.clientCA is set and no client certificate chaining to it was presented; applies to every path under server.tls.requireClientCertificateFor)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "TLS_NOT_CONFIGURED (no server.tls section)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "TLS_RELOAD_FAILED: the files do not make a usable pair; the certificate in force stays",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/v1/reader-tokens": {
   "post": {
    "summary": "Mint an ES256 reader token for Apple's Verifier API",
    "operationId": "mintReaderToken",
    "security": [
     {
      "clientToken": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "readerInstanceIdentifier"
        ],
        "properties": {
         "readerInstanceIdentifier": {
          "type": "string",
          "minLength": 1,
          "maxLength": 256
         }
        }
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "minted",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "token": {
           "type": "string"
          },
          "issuedAt": {
           "type": "string",
           "format": "date-time"
          },
          "expiresAt": {
           "type": "string",
           "format": "date-time"
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "INVALID_READER_INSTANCE_IDENTIFIER",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "READER_TOKENS_DISABLED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/healthz": {
   "get": {
    "summary": "Liveness",
    "operationId": "healthz",
    "responses": {
     "200": {
      "description": "alive"
     }
    }
   }
  },
  "/readyz": {
   "get": {
    "summary": "Readiness: configuration loaded, at least one trust anchor, keys loaded",
    "operationId": "readyz",
    "responses": {
     "200": {
      "description": "ready, or degraded: verification works on the set in force but an operator is needed (the trust directory does not load, the database is unavailable, a VICAL refresh failed, a VICAL is past its nextUpdate)",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "status": {
           "type": "string",
           "enum": [
            "ready",
            "degraded"
           ]
          },
          "trustAnchors": {
           "type": "integer"
          },
          "trustVersion": {
           "type": "integer",
           "description": "the trust set version in force (with PostgreSQL the same on every replica once it has adopted it)"
          },
          "merchantKeys": {
           "type": "integer"
          },
          "store": {
           "type": "object",
           "properties": {
            "kind": {
             "type": "string",
             "enum": [
              "memory",
              "postgres"
             ]
            },
            "status": {
             "type": "string",
             "enum": [
              "ok",
              "unavailable"
             ]
            }
           }
          },
          "degraded": {
           "type": "array",
           "items": {
            "type": "string"
           },
           "description": "present only when degraded"
          }
         }
        }
       }
      }
     },
     "503": {
      "description": "NOT_READY",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/metrics": {
   "get": {
    "summary": "Prometheus metrics",
    "operationId": "metrics",
    "responses": {
     "200": {
      "description": "text exposition format",
      "content": {
       "text/plain": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/openapi.json": {
   "get": {
    "summary": "This document",
    "operationId": "openapi",
    "responses": {
     "200": {
      "description": "OpenAPI 3.1"
     }
    }
   }
  },
  "/v1/web/requests": {
   "post": {
    "summary": "Make a signed org-iso-mdoc request (ISO/IEC 18013-7 Annex C) and open a one-time session",
    "operationId": "webCreateRequest",
    "description": "Per request: a fresh P-256 recipient key and a 32-byte nonce. `request` is exactly what the page passes to navigator.credentials.get({mediation: \"required\", digital: {requests: [request]}}). The DeviceRequest is deterministic CBOR with itemsRequest as tag 24, signed with readerAuth / readerAuthAll as readerAuth.mode says (unsigned without a readerAuth section).",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "origin"
        ],
        "properties": {
         "origin": {
          "type": "string",
          "description": "the page's serialized origin (https://host[:port], no trailing slash); must be in web.allowedOrigins"
         },
         "documents": {
          "type": "array",
          "maxItems": 4,
          "description": "default: org.iso.18013.5.1.mDL family_name, given_name, birth_date, age_over_21 (none retained)",
          "items": {
           "type": "object",
           "required": [
            "docType",
            "elements"
           ],
           "properties": {
            "docType": {
             "type": "string"
            },
            "elements": {
             "type": "object",
             "description": "namespace -> element -> intentToRetain",
             "additionalProperties": {
              "type": "object",
              "additionalProperties": {
               "type": "boolean"
              }
             }
            }
           }
          }
         }
        }
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "the session and the request for the browser",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "sessionId",
          "expiresAt",
          "request"
         ],
         "properties": {
          "sessionId": {
           "type": "string",
           "description": "43 characters of base64url; a bearer secret for one verification"
          },
          "expiresAt": {
           "type": "string",
           "format": "date-time"
          },
          "request": {
           "type": "object",
           "properties": {
            "protocol": {
             "type": "string",
             "enum": [
              "org-iso-mdoc"
             ]
            },
            "data": {
             "type": "object",
             "properties": {
              "deviceRequest": {
               "type": "string",
               "description": "base64url without padding of CBOR DeviceRequest"
              },
              "encryptionInfo": {
               "type": "string",
               "description": "base64url without padding of CBOR [\"dcapi\", {nonce, recipientPublicKey}]"
              }
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "INVALID_REQUEST, ORIGIN_NOT_ALLOWED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED (with WWW-Authenticate: Bearer): no integrator bearer token, or not a configured one",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "429": {
      "description": "INTEGRATOR_QUOTA_EXCEEDED (with Retry-After): this integrator holds its share of open web sessions (integrators.maxSessionsPerIntegrator)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "WEB_NOT_CONFIGURED, SESSION_STORE_FULL (this kind's part of web.maxSessions is used up) (with Retry-After), STORE_UNAVAILABLE (with Retry-After: the database cannot be reached)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    },
    "security": [
     {
      "integratorToken": []
     }
    ]
   }
  },
  "/v1/web/verify": {
   "post": {
    "summary": "Decrypt and verify the browser's org-iso-mdoc answer",
    "operationId": "webVerify",
    "description": "With sessionId: the session is consumed by this call whatever its outcome. The transcript is [null, null, [\"dcapi\", SHA-256(CBOR([encryptionInfo, origin]))]]; HPKE base mode DHKEM(P-256)/HKDF-SHA256/AES-128-GCM with the transcript as info. The answer is compared with the request: check request.elements fails with ELEMENT_NOT_REQUESTED for a disclosed element that was not requested; requested elements that did not come back are listed in notReturned. Without sessionId (only with web.allowStatelessVerify): encryptionInfo, origin and recipientPrivateKey are required, and request.elements is notApplicable.",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "response"
        ],
        "properties": {
         "sessionId": {
          "type": "string"
         },
         "response": {
          "type": "string",
          "description": "credential.data.response: base64url without padding of CBOR [\"dcapi\", {enc, cipherText}]"
         },
         "encryptionInfo": {
          "type": "string",
          "description": "stateless only: the exact string the page was given"
         },
         "origin": {
          "type": "string",
          "description": "stateless only: must be in web.allowedOrigins"
         },
         "recipientPrivateKey": {
          "type": "string",
          "description": "stateless only: base64 of the raw P-256 scalar, or PEM"
         },
         "verificationTime": {
          "type": "string",
          "format": "date-time",
          "description": "honoured only when verification.allowVerificationTimeOverride is true"
         }
        }
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "verified; claims included",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/VerificationResult"
        }
       }
      }
     },
     "400": {
      "description": "INVALID_REQUEST, ENVELOPE_MALFORMED, ORIGIN_NOT_ALLOWED, STATELESS_VERIFY_DISABLED, INVALID_ENCRYPTION_INFO, INVALID_RECIPIENT_KEY, RECIPIENT_KEY_MISMATCH, VERIFICATION_TIME_OVERRIDE_DISABLED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED (with WWW-Authenticate: Bearer): no integrator bearer token, or not a configured one",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "SESSION_NOT_FOUND (also a session created by another integrator)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "SESSION_ALREADY_USED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "410": {
      "description": "SESSION_EXPIRED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "not verified (DECRYPTION_FAILED, DOCUMENTS_NOT_RETURNED, ELEMENT_NOT_REQUESTED, any check): code, message and every check",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/VerificationResult"
        }
       }
      }
     },
     "503": {
      "description": "WEB_NOT_CONFIGURED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    },
    "security": [
     {
      "integratorToken": []
     }
    ]
   }
  },
  "/v1/proximity/sessions": {
   "post": {
    "summary": "Open an ISO 18013-5 proximity session for a reader that relays bytes",
    "operationId": "proximityCreateSession",
    "description": "Parses the DeviceEngagement (cipher suite 1, P-256 EDeviceKey), makes a fresh eReaderKey, builds SessionTranscript = [DeviceEngagementBytes, EReaderKeyBytes, Handover], derives SKReader/SKDevice and returns the SessionEstablishment with the DeviceRequest encrypted (AES-256-GCM, reader counter 1), signed per readerAuth.mode when a readerAuth section is configured.",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "deviceEngagement"
        ],
        "properties": {
         "deviceEngagement": {
          "type": "string",
          "description": "mdoc:<base64url> (the QR code) or base64 of the CBOR DeviceEngagement"
         },
         "handover": {
          "type": "string",
          "description": "base64 CBOR Handover (e.g. NFC); absent = QR handover (null in the transcript)"
         },
         "documents": {
          "type": "array",
          "maxItems": 4,
          "description": "same shape as /v1/web/requests; default mDL family_name, given_name, birth_date, age_over_21",
          "items": {
           "type": "object"
          }
         },
         "deviceRequest": {
          "type": "string",
          "description": "base64 CBOR DeviceRequest sent as is (instead of documents)"
         },
         "eReaderPrivateKey": {
          "type": "string",
          "description": "test hook: hex P-256 scalar; only with proximity.allowInjectedReaderKey"
         }
        }
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "the session and the first message for the mdoc",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "sessionId": {
           "type": "string"
          },
          "expiresAt": {
           "type": "string",
           "format": "date-time"
          },
          "eReaderKey": {
           "type": "string",
           "description": "base64 COSE_Key of the reader's ephemeral public key"
          },
          "sessionEstablishment": {
           "type": "string",
           "description": "base64 CBOR {eReaderKey, data} to send to the mdoc"
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "INVALID_REQUEST, DEVICE_ENGAGEMENT_INVALID, HANDOVER_INVALID, DEVICE_REQUEST_INVALID, INVALID_BASE64, INJECTED_READER_KEY_DISABLED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED (with WWW-Authenticate: Bearer): no integrator bearer token, or not a configured one",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "429": {
      "description": "INTEGRATOR_QUOTA_EXCEEDED (with Retry-After): this integrator holds its share of open proximity sessions (integrators.maxSessionsPerIntegrator)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "PROXIMITY_NOT_CONFIGURED, SESSION_STORE_FULL (this kind's part of web.maxSessions is used up), STORE_UNAVAILABLE",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    },
    "security": [
     {
      "integratorToken": []
     }
    ]
   }
  },
  "/v1/proximity/sessions/{id}/messages": {
   "post": {
    "summary": "Decrypt and verify the mdoc's SessionData",
    "operationId": "proximityMessage",
    "description": "Consumes the session whatever the outcome. Decrypts with SKDevice (mdoc counter 1), verifies the DeviceResponse with the session's transcript (device signature, or device MAC with EMacKey from eReaderKey) and compares it with the request. `reply` is SessionData {status: 20} for the reader to send.",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "sessionData"
        ],
        "properties": {
         "sessionData": {
          "type": "string",
          "description": "base64 CBOR SessionData from the mdoc"
         },
         "verificationTime": {
          "type": "string",
          "format": "date-time",
          "description": "honoured only when verification.allowVerificationTimeOverride is true"
         }
        }
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "verified; claims and reply included",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/VerificationResult"
        }
       }
      }
     },
     "400": {
      "description": "INVALID_REQUEST, INVALID_BASE64, SESSION_DATA_MALFORMED, VERIFICATION_TIME_OVERRIDE_DISABLED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED (with WWW-Authenticate: Bearer): no integrator bearer token, or not a configured one",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "SESSION_NOT_FOUND (also a session created by another integrator)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "SESSION_ALREADY_USED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "410": {
      "description": "SESSION_EXPIRED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "not verified (DECRYPTION_FAILED, SESSION_COUNTER_INVALID, SESSION_KEY_MISMATCH, SESSION_ENDED_BY_DEVICE, DOCUMENTS_NOT_RETURNED, any check); reply included",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/VerificationResult"
        }
       }
      }
     },
     "503": {
      "description": "PROXIMITY_NOT_CONFIGURED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    },
    "security": [
     {
      "integratorToken": []
     }
    ]
   }
  },
  "/v1/admin/vicals/{source}": {
   "post": {
    "summary": "Import (or dry-run) a VICAL for a source",
    "description": "The body is the VICAL (COSE_Sign1, ISO/IEC 18013-5 Annex C). Its signature and signer chain are verified up to the source's configured signer anchor (trust.vicalSigners) at the service clock, `date` must not be in the future and `nextUpdate` not past, and `vicalIssueID` must not be lower than the list in force; once the list in force has a `vicalIssueID`, a list without one is refused too (422 `VICAL_ROLLBACK`). Then all anchors of the source are replaced in one step; other sources and manual anchors stay. Entries that are not usable IACAs are skipped and listed.",
    "operationId": "importVICAL",
    "security": [
     {
      "adminToken": []
     }
    ],
    "parameters": [
     {
      "name": "source",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "pattern": "^[a-z0-9-]{1,32}$"
      }
     },
     {
      "name": "dryRun",
      "in": "query",
      "schema": {
       "type": "boolean"
      },
      "description": "answer the diff and write nothing"
     },
     {
      "name": "at",
      "in": "query",
      "schema": {
       "type": "string",
       "format": "date-time"
      },
      "description": "verification time; only with verification.allowVerificationTimeOverride"
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/cbor": {
       "schema": {
        "type": "string",
        "contentMediaType": "application/cbor"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "the list was imported (or would be, for a dry run)",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "source": {
           "type": "string"
          },
          "dryRun": {
           "type": "boolean"
          },
          "issueID": {
           "type": [
            "integer",
            "null"
           ]
          },
          "provider": {
           "type": "string"
          },
          "date": {
           "type": "string"
          },
          "nextUpdate": {
           "type": [
            "string",
            "null"
           ]
          },
          "signer": {
           "type": "string"
          },
          "sha256": {
           "type": "string"
          },
          "entries": {
           "type": "integer"
          },
          "added": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "sha256": {
              "type": "string"
             },
             "subject": {
              "type": "string"
             }
            }
           }
          },
          "removed": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "sha256": {
              "type": "string"
             },
             "subject": {
              "type": "string"
             }
            }
           }
          },
          "unchanged": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "sha256": {
              "type": "string"
             },
             "subject": {
              "type": "string"
             }
            }
           }
          },
          "skipped": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "index": {
              "type": "integer"
             },
             "reason": {
              "type": "string"
             }
            }
           }
          },
          "version": {
           "type": "integer"
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "VICAL_SOURCE_NOT_CONFIGURED (no signer anchor for the source), INVALID_VERIFICATION_TIME",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "422": {
      "description": "VICAL_MALFORMED, VICAL_SIGNATURE_INVALID, VICAL_SIGNER_UNTRUSTED, VICAL_SIGNER_EXPIRED, VICAL_SIGNER_NOT_AUTHORIZED, VICAL_NOT_YET_VALID, VICAL_STALE, VICAL_ROLLBACK, VICAL_ISSUE_ID_REUSED, VICAL_NO_USABLE_ENTRY",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "500": {
      "description": "TRUST_STORAGE_FAILED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/v1/admin/vicals": {
   "get": {
    "summary": "VICAL sources and the list in force for each",
    "operationId": "listVICALSources",
    "security": [
     {
      "adminToken": []
     }
    ],
    "responses": {
     "200": {
      "description": "every source with a signer anchor, a schedule or a list in force",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "sources": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "name": {
              "type": "string"
             },
             "configured": {
              "type": "boolean"
             },
             "url": {
              "type": [
               "string",
               "null"
              ]
             },
             "refreshHours": {
              "type": [
               "number",
               "null"
              ]
             },
             "signerAnchor": {
              "type": [
               "string",
               "null"
              ]
             },
             "inForce": {
              "type": [
               "object",
               "null"
              ],
              "properties": {
               "issueID": {
                "type": [
                 "integer",
                 "null"
                ]
               },
               "provider": {
                "type": "string"
               },
               "date": {
                "type": "string"
               },
               "nextUpdate": {
                "type": [
                 "string",
                 "null"
                ]
               },
               "importedAt": {
                "type": "string"
               },
               "anchorCount": {
                "type": "integer"
               },
               "sha256": {
                "type": "string"
               }
              }
             },
             "ageSeconds": {
              "type": [
               "number",
               "null"
              ],
              "description": "since the list's date"
             },
             "nextUpdateMarginSeconds": {
              "type": [
               "number",
               "null"
              ],
              "description": "negative when overdue"
             },
             "lastRefresh": {
              "type": [
               "object",
               "null"
              ],
              "properties": {
               "at": {
                "type": "string"
               },
               "outcome": {
                "type": "string",
                "enum": [
                 "imported",
                 "not-modified",
                 "unchanged",
                 "fetch-failed",
                 "refused"
                ]
               },
               "detail": {
                "type": [
                 "string",
                 "null"
                ]
               }
              }
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/v1/admin/trust/changes": {
   "get": {
    "summary": "The last trust changes (up to 50, newest first)",
    "operationId": "listTrustChanges",
    "security": [
     {
      "adminToken": []
     }
    ],
    "responses": {
     "200": {
      "description": "recent changes",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "changes": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "at": {
              "type": "string"
             },
             "actor": {
              "type": "string"
             },
             "action": {
              "type": "string"
             },
             "requestId": {
              "type": [
               "string",
               "null"
              ]
             },
             "version": {
              "type": "integer"
             },
             "anchorCount": {
              "type": "integer"
             },
             "fingerprints": {
              "type": "array",
              "items": {
               "type": "string"
              }
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "description": "UNAUTHORIZED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/admin": {
   "get": {
    "summary": "The operations console (static page; the admin token is pasted into it and kept in memory)",
    "operationId": "consoleAdmin",
    "responses": {
     "200": {
      "description": "served with a strict Content-Security-Policy",
      "content": {
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/admin/console.js": {
   "get": {
    "summary": "The console's script",
    "operationId": "consoleConsoleJs",
    "responses": {
     "200": {
      "description": "served with a strict Content-Security-Policy",
      "content": {
       "text/javascript": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/admin/console.css": {
   "get": {
    "summary": "The console's style",
    "operationId": "consoleConsoleCss",
    "responses": {
     "200": {
      "description": "served with a strict Content-Security-Policy",
      "content": {
       "text/css": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  }
 },
 "components": {
  "securitySchemes": {
   "adminToken": {
    "type": "http",
    "scheme": "bearer"
   },
   "clientToken": {
    "type": "http",
    "scheme": "bearer"
   },
   "integratorToken": {
    "type": "http",
    "scheme": "bearer",
    "description": "An integrator's token (integrators.tokens), required by default on every create and verify route; the integrator's name appears in logs and metrics and owns the sessions it creates."
   }
  },
  "schemas": {
   "Problem": {
    "type": "object",
    "required": [
     "type",
     "title",
     "status",
     "code"
    ],
    "properties": {
     "type": {
      "type": "string"
     },
     "title": {
      "type": "string"
     },
     "status": {
      "type": "integer"
     },
     "detail": {
      "type": "string"
     },
     "code": {
      "type": "string"
     }
    }
   },
   "Check": {
    "type": "object",
    "required": [
     "id",
     "outcome"
    ],
    "properties": {
     "id": {
      "type": "string",
      "enum": [
       "issuer.certificateChain",
       "issuer.certificateProfile",
       "issuer.signature",
       "mso.docType",
       "issuer.valueDigests",
       "mso.validity",
       "mso.deviceKey",
       "device.authentication",
       "device.keyAuthorizations",
       "mso.status",
       "request.elements"
      ]
     },
     "outcome": {
      "type": "string",
      "enum": [
       "passed",
       "failed",
       "warning",
       "notApplicable"
      ]
     },
     "code": {
      "$ref": "#/components/schemas/VerificationCode"
     },
     "detail": {
      "type": "string"
     }
    }
   },
   "VerificationCode": {
    "type": "string",
    "description": "stable verification error codes (checks and response-level)",
    "enum": [
     "ISSUER_CERTIFICATE_UNTRUSTED",
     "ISSUER_CERTIFICATE_EXPIRED",
     "TRUSTED_ISSUER_CERTIFICATE_EXPIRED",
     "ISSUER_CERTIFICATE_INVALID",
     "ISSUER_NOT_AUTHORIZED_FOR_DOCTYPE",
     "CERTIFICATE_PROFILE_VIOLATION",
     "ISSUER_SIGNATURE_INVALID",
     "ALGORITHM_UNSUPPORTED",
     "DOC_TYPE_MISMATCH",
     "DIGEST_MISMATCH",
     "DIGEST_MISSING",
     "DIGEST_ALGORITHM_UNSUPPORTED",
     "MSO_EXPIRED",
     "MSO_NOT_YET_VALID",
     "MSO_SIGNED_OUTSIDE_CERTIFICATE_VALIDITY",
     "MSO_MALFORMED",
     "DEVICE_SIGNATURE_INVALID",
     "DEVICE_MAC_INVALID",
     "DEVICE_AUTH_MISSING",
     "READER_KEY_REQUIRED",
     "DEVICE_KEY_UNAUTHORIZED",
     "STATUS_REVOKED",
     "STATUS_SUSPENDED",
     "STATUS_UNKNOWN",
     "ELEMENT_NOT_REQUESTED",
     "DEVICE_RESPONSE_MALFORMED",
     "DEVICE_RESPONSE_LIMIT_EXCEEDED",
     "SESSION_TRANSCRIPT_MALFORMED",
     "DOCUMENTS_NOT_RETURNED",
     "ENVELOPE_MALFORMED",
     "ENVELOPE_UNSUPPORTED",
     "RECIPIENT_KEY_UNKNOWN",
     "INFO_HASH_MISMATCH",
     "DECRYPTION_FAILED",
     "NONCE_INVALID",
     "SESSION_DATA_MALFORMED",
     "SESSION_COUNTER_INVALID",
     "SESSION_KEY_MISMATCH",
     "SESSION_ENDED_BY_DEVICE"
    ]
   },
   "Document": {
    "type": "object",
    "properties": {
     "docType": {
      "type": "string"
     },
     "verified": {
      "type": "boolean"
     },
     "claims": {
      "type": "object",
      "additionalProperties": {
       "type": "object"
      },
      "description": "issuer-signed elements only: namespace -> element -> value; bytes as base64, dates as strings; only when the whole response verified"
     },
     "deviceSignedClaims": {
      "type": "object",
      "additionalProperties": {
       "type": "object"
      },
      "description": "elements the holder's device signed (holder-asserted, not issuer data); same shape as claims; only when present and the whole response verified"
     },
     "issuer": {
      "type": "object",
      "properties": {
       "documentSigner": {
        "type": "string"
       },
       "iaca": {
        "type": "string"
       },
       "iacaSha256": {
        "type": "string"
       },
       "country": {
        "type": "string"
       }
      }
     },
     "validity": {
      "type": "object",
      "properties": {
       "signed": {
        "type": "string"
       },
       "validFrom": {
        "type": "string"
       },
       "validUntil": {
        "type": "string"
       },
       "expectedUpdate": {
        "type": "string"
       }
      }
     },
     "deviceAuthentication": {
      "type": [
       "string",
       "null"
      ],
      "enum": [
       "signature",
       "mac",
       null
      ]
     },
     "checks": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/Check"
      }
     },
     "notReturned": {
      "type": "object",
      "additionalProperties": {
       "type": "array",
       "items": {
        "type": "string"
       }
      },
      "description": "web flow: requested elements that the answer did not contain (the holder may decline), namespace -> element names; never values"
     }
    }
   },
   "VerificationResult": {
    "type": "object",
    "required": [
     "verified",
     "documents"
    ],
    "properties": {
     "verified": {
      "type": "boolean"
     },
     "code": {
      "$ref": "#/components/schemas/VerificationCode"
     },
     "message": {
      "type": "string"
     },
     "documents": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/Document"
      }
     },
     "reply": {
      "type": "string",
      "description": "proximity only: base64 SessionData for the reader to send to the mdoc (status 20, session termination)"
     },
     "sessionTranscriptSource": {
      "type": "string",
      "enum": [
       "caller"
      ],
      "description": "POST /v1/mdoc/verify only, always \"caller\": the SessionTranscript was supplied by the caller, so the device signature (or MAC) proves only the transcript the caller chose, not a session of this verifier; the device.authentication check's detail says the same. Absent where the verifier builds the transcript itself (Apple, web, proximity)."
     }
    }
   },
   "TrustAnchor": {
    "type": "object",
    "properties": {
     "sha256": {
      "type": "string"
     },
     "subject": {
      "type": "string"
     },
     "country": {
      "type": "string"
     },
     "subjectKeyIdentifier": {
      "type": "string"
     },
     "notBefore": {
      "type": "string"
     },
     "notAfter": {
      "type": "string"
     },
     "status": {
      "type": "string",
      "enum": [
       "valid",
       "expiring",
       "expired"
      ]
     },
     "file": {
      "type": [
       "string",
       "null"
      ]
     },
     "daysToExpiry": {
      "type": "number"
     },
     "source": {
      "type": "string",
      "description": "manual or vical:<source>"
     },
     "docTypes": {
      "type": [
       "array",
       "null"
      ],
      "items": {
       "type": "string"
      },
      "description": "null: any docType"
     },
     "issuingAuthority": {
      "type": [
       "string",
       "null"
      ]
     },
     "issuingCountry": {
      "type": [
       "string",
       "null"
      ]
     },
     "stateOrProvince": {
      "type": [
       "string",
       "null"
      ]
     },
     "vicalIssueID": {
      "type": [
       "integer",
       "null"
      ]
     }
    }
   }
  }
 }
}
"""#
}
