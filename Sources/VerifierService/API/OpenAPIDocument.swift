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
     "400": {
      "description": "invalid request, ENVELOPE_MALFORMED, ENVELOPE_UNSUPPORTED, NONCE_INVALID, INVALID_BASE64, VERIFICATION_TIME_OVERRIDE_DISABLED",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "APPLE_NOT_CONFIGURED",
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
     }
    }
   }
  },
  "/v1/mdoc/verify": {
   "post": {
    "summary": "Verify an ISO 18013-5 DeviceResponse",
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
          "description": "base64 raw scalar or PEM, for device MAC"
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
     "422": {
      "description": "not verified",
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
     }
    }
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
      "description": "INVALID_IACA, IACA_UNPARSABLE",
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
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/x-pem-file": {
       "schema": {
        "type": "string"
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
      "description": "INVALID_IACA",
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
     }
    }
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
             "uri": {"type": "string"},
             "kind": {"type": "string", "enum": ["statusList", "identifierList"]},
             "entries": {"type": "integer"},
             "fetchedAt": {"type": "string"},
             "ageSeconds": {"type": "integer"},
             "freshUntil": {"type": "string"},
             "issuedAt": {"type": "string"},
             "expiresAt": {"type": "string"},
             "signerIaca": {"type": ["string", "null"]}
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
      "description": "ready"
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
       "device.authentication",
       "device.keyAuthorizations",
       "mso.status"
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
     "DEVICE_RESPONSE_MALFORMED",
     "DEVICE_RESPONSE_LIMIT_EXCEEDED",
     "SESSION_TRANSCRIPT_MALFORMED",
     "ENVELOPE_MALFORMED",
     "ENVELOPE_UNSUPPORTED",
     "RECIPIENT_KEY_UNKNOWN",
     "INFO_HASH_MISMATCH",
     "DECRYPTION_FAILED",
     "NONCE_INVALID"
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
      "type": "string"
     }
    }
   }
  }
 }
}
"""#
}
