import StrictJSON

/// Applies the disclosures to the issuer-signed payload (RFC 9901 7.1 steps 3 to 5): every digest in an `_sd` array
/// or a `{"...": digest}` array element that a disclosure matches is replaced by the disclosed claim, recursively
/// into disclosed values; digests without a disclosure (decoys, withheld claims) are dropped; `_sd` and the top-level
/// `_sd_alg` are removed.
///
/// Refused, each with its code: a digest seen twice anywhere (payload and disclosures), a disclosure sent twice or
/// referenced by no digest, a name `_sd` or `...`, a name already in its object, the wrong disclosure form for its
/// place, a malformed `_sd` or `...` element, `_sd_alg` below the top or not `sha-256`, and a disclosure at or under
/// a claim in ``protectedNames`` (SD-JWT VC 2.2.2.3 and RFC 9901 9.7: these are never selectively disclosable).
/// Every disclosure is used at most once, so the work is bounded by the input.
public struct DisclosureResolver: Sendable {
    /// Top-level claims that must never come from a disclosure, nor anything under them.
    public let protectedNames: Set<String>
    public let limits: SDJWTLimits

    /// SD-JWT VC's protected claims (draft -19 2.2.2.3) and RFC 9901's `aud` (9.7).
    public static let sdJwtVcProtectedNames: Set<String> = ["iss", "nbf", "exp", "cnf", "vct", "vct#integrity", "aka_vcts", "status", "aud"]

    public init(protectedNames: Set<String> = Self.sdJwtVcProtectedNames, limits: SDJWTLimits = SDJWTLimits()) {
        self.protectedNames = protectedNames
        self.limits = limits
    }

    /// The processed payload, and the path of every value a disclosure supplied (in the order they were applied).
    public struct Resolved: Sendable {
        public let claims: JSON
        public let disclosedPaths: [ClaimPath]
    }

    public func resolve(payload: JSON, disclosures: [Disclosure]) throws(SDJWTFailure) -> Resolved {
        guard case .object(let top) = payload else { throw SDJWTFailure(.payloadMalformed, "the payload is not an object") }
        if let algorithm = top.first(where: { $0.0 == "_sd_alg" })?.1 {
            guard case .string(let name) = algorithm else { throw SDJWTFailure(.payloadMalformed, "_sd_alg is not a string") }
            guard name == "sha-256" else { throw SDJWTFailure(.sdAlgorithmUnsupported, "_sd_alg \"\(name.prefix(32))\" is not sha-256") }
        }
        var state = State()
        for (position, disclosure) in disclosures.enumerated() {
            guard state.byDigest.updateValue(position, forKey: disclosure.digest) == nil else {
                throw SDJWTFailure(.disclosureDuplicate, "disclosure \(position + 1) is sent twice")
            }
        }
        let claims = try object(top, path: [], depth: 0, protected: false, disclosures: disclosures, state: &state, isTop: true)
        if let unused = disclosures.indices.first(where: { !state.used.contains($0) }) {
            throw SDJWTFailure(.disclosureUnreferenced, "disclosure \(unused + 1) is referenced by no digest (extra, altered or re-encoded)")
        }
        return Resolved(claims: claims, disclosedPaths: state.disclosedPaths)
    }

    struct State {
        var byDigest: [String: Int] = [:]
        var seenDigests = Set<String>()
        var used = Set<Int>()
        var disclosedPaths: [ClaimPath] = []
    }

    private func value(_ value: JSON, path: ClaimPath, depth: Int, protected: Bool, disclosures: [Disclosure],
                       state: inout State) throws(SDJWTFailure) -> JSON {
        switch value {
        case .object(let members):
            return try object(members, path: path, depth: depth, protected: protected, disclosures: disclosures, state: &state, isTop: false)
        case .array(let items):
            return try array(items, path: path, depth: depth, protected: protected, disclosures: disclosures, state: &state)
        default:
            return value
        }
    }

    private func object(_ members: [(String, JSON)], path: ClaimPath, depth: Int, protected: Bool, disclosures: [Disclosure],
                        state: inout State, isTop: Bool) throws(SDJWTFailure) -> JSON {
        guard depth < limits.maximumDepth else {
            throw SDJWTFailure(.payloadMalformed, "the claims nest deeper than \(limits.maximumDepth)")
        }
        var output: [(String, JSON)] = []
        var names = Set<String>()
        var digests: [String] = []
        for (name, member) in members {
            switch name {
            case "_sd":
                guard case .array(let items) = member else { throw SDJWTFailure(.payloadMalformed, "_sd at \(where_(path)) is not an array") }
                for item in items {
                    guard case .string(let digest) = item else {
                        throw SDJWTFailure(.payloadMalformed, "_sd at \(where_(path)) holds a value that is not a string")
                    }
                    digests.append(digest)
                }
            case "_sd_alg" where isTop:
                continue
            case "_sd_alg":
                throw SDJWTFailure(.payloadMalformed, "_sd_alg appears below the top level (at \(where_(path)))")
            default:
                let memberProtected = protected || (isTop && protectedNames.contains(name))
                names.insert(name)
                output.append((name, try value(member, path: path + [.name(name)], depth: depth + 1, protected: memberProtected,
                                               disclosures: disclosures, state: &state)))
            }
        }
        for digest in digests {
            guard state.seenDigests.insert(digest).inserted else {
                throw SDJWTFailure(.digestDuplicate, "a digest appears twice (at \(where_(path)))")
            }
            guard let position = state.byDigest[digest] else { continue }
            let disclosure = disclosures[position]
            guard let name = disclosure.name else {
                throw SDJWTFailure(.disclosureMalformed, "disclosure \(position + 1) is an array element but \(where_(path))'s _sd refers to it")
            }
            // `_sd` and `...` (7.1 step 3.2.2), and `_sd_alg` (4.1.1: reserved, it never survives processing).
            guard name != "_sd", name != "...", name != "_sd_alg" else {
                throw SDJWTFailure(.disclosureNameInvalid, "disclosure \(position + 1) names its claim \"\(name)\"")
            }
            if protected || (isTop && protectedNames.contains(name)) {
                throw SDJWTFailure(.protectedClaimDisclosed,
                                   "\((path + [.name(name)]).shortDotted) comes from a disclosure; it must be in the clear")
            }
            guard names.insert(name).inserted else {
                throw SDJWTFailure(.claimNameCollision, "\((path + [.name(name)]).shortDotted) is both in the clear and disclosed, or disclosed twice")
            }
            state.used.insert(position)
            let claimPath = path + [.name(name)]
            state.disclosedPaths.append(claimPath)
            output.append((name, try value(disclosure.value, path: claimPath, depth: depth + 1, protected: false,
                                           disclosures: disclosures, state: &state)))
        }
        return .object(output)
    }

    private func array(_ items: [JSON], path: ClaimPath, depth: Int, protected: Bool, disclosures: [Disclosure],
                       state: inout State) throws(SDJWTFailure) -> JSON {
        guard depth < limits.maximumDepth else {
            throw SDJWTFailure(.payloadMalformed, "the claims nest deeper than \(limits.maximumDepth)")
        }
        var output: [JSON] = []
        for item in items {
            if case .object(let members) = item, members.contains(where: { $0.0 == "..." }) {
                guard members.count == 1, case .string(let digest) = members[0].1 else {
                    throw SDJWTFailure(.payloadMalformed, "an array element of \(where_(path)) with \"...\" has other members or no string digest")
                }
                guard state.seenDigests.insert(digest).inserted else {
                    throw SDJWTFailure(.digestDuplicate, "a digest appears twice (in \(where_(path)))")
                }
                guard let position = state.byDigest[digest] else { continue }
                let disclosure = disclosures[position]
                guard disclosure.name == nil else {
                    throw SDJWTFailure(.disclosureMalformed, "disclosure \(position + 1) names a claim but \(where_(path)) holds it as an array element")
                }
                if protected {
                    throw SDJWTFailure(.protectedClaimDisclosed, "an element of \(path.shortDotted) comes from a disclosure; it must be in the clear")
                }
                state.used.insert(position)
                let elementPath = path + [.index(output.count)]
                state.disclosedPaths.append(elementPath)
                output.append(try value(disclosure.value, path: elementPath, depth: depth + 1, protected: false,
                                        disclosures: disclosures, state: &state))
            } else {
                output.append(try value(item, path: path + [.index(output.count)], depth: depth + 1, protected: protected,
                                        disclosures: disclosures, state: &state))
            }
        }
        return .array(output)
    }

    private func where_(_ path: ClaimPath) -> String {
        path.isEmpty ? "the top level" : path.shortDotted
    }
}
