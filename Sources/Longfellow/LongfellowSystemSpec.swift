/// One Longfellow mdoc proof system (`longfellow-libzk-v1`) a verifier may accept: its circuit (by the hash of its
/// content), the number of attributes it proves, and the Ligero parameters of its version. Only versions 6 and 7:
/// earlier circuits predate the fix of a soundness flaw (ISRG-01) and are never accepted.
public struct LongfellowSystemSpec: Sendable, Equatable {
    public let version: Int
    public let attributeCount: Int
    /// Lowercase hex of SHA-256(signature circuit id ‖ hash circuit id).
    public let circuitHash: String
    /// Reed–Solomon codeword lengths of the hash and signature circuits' commitments.
    public let blockEncodedHash: Int
    public let blockEncodedSignature: Int

    /// Ligero's inverse rate and opened columns by version (6: 4 and 128; 7: 7 and 132).
    public var rate: Int { version == 7 ? 7 : 4 }
    public var requiredColumns: Int { version == 7 ? 132 : 128 }

    /// Google's published systems (google/longfellow-zk lib/circuits/mdoc/zk_spec.cc, `kZkSpecs`), v6 and v7.
    public static let published: [LongfellowSystemSpec] = [
        .init(version: 7, attributeCount: 1, circuitHash: "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
              blockEncodedHash: 4151, blockEncodedSignature: 4096),
        .init(version: 7, attributeCount: 2, circuitHash: "6a5810683e62b6d7766ebd0d7ca72518a2b8325418142adcadb10d51dbbcd5ad",
              blockEncodedHash: 4265, blockEncodedSignature: 4096),
        .init(version: 7, attributeCount: 3, circuitHash: "8ee4849ae1293ae6fe5f9082ce3e5e15c4f198f2998c682fa1b727237d6d252f",
              blockEncodedHash: 4307, blockEncodedSignature: 4096),
        .init(version: 7, attributeCount: 4, circuitHash: "5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460",
              blockEncodedHash: 4415, blockEncodedSignature: 4096),
        .init(version: 6, attributeCount: 1, circuitHash: "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6",
              blockEncodedHash: 4096, blockEncodedSignature: 2945),
        .init(version: 6, attributeCount: 2, circuitHash: "b4bb6f01b7043f4f51d8302a30b36e3d4d2d0efc3c24557ab9212ad524a9764e",
              blockEncodedHash: 4025, blockEncodedSignature: 2945),
        .init(version: 6, attributeCount: 3, circuitHash: "b2211223b954b34a1081e3fbf71b8ea2de28efc888b4be510f532d6ba76c2010",
              blockEncodedHash: 4121, blockEncodedSignature: 2945),
        .init(version: 6, attributeCount: 4, circuitHash: "c70b5f44a1365c53847eb8948ad5b4fdc224251a2bc02d958c84c862823c49d6",
              blockEncodedHash: 4283, blockEncodedSignature: 2945),
    ]

    /// The published system with this circuit hash, if any.
    public static func published(circuitHash: String) -> LongfellowSystemSpec? {
        published.first { $0.circuitHash == circuitHash }
    }
}
