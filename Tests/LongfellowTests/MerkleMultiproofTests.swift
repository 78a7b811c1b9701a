import Testing
@testable import Longfellow

/// The Merkle vector of the Longfellow specification (google/longfellow-zk docs/specs/testvectors.md, "Test Vectors
/// for Merkle Tree", vector 1: five leaves, two multiproofs), and every way a proof can be wrong.
struct MerkleMultiproofTests {
    static func bytes(_ hex: String) -> [UInt8] { HexBytes.bytes(hex) }

    static let leaves = [
        "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a",
        "dbc1b4c900ffe48d575b5da5c638040125f65db0fe3e24494b76ea986457d986",
        "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5",
        "e52d9c508c502347344d8c07ad91cbd6068afc75ff6292f062a09ca381c89e71",
        "e77b9a9ae9e30b0dbdb6f510a264ef9de781501d7b6b92ae89eb059c5ab743db",
    ].map(bytes)
    static let root = bytes("f22f4501ffd3bdffcecc9e4cd6828a4479aeedd6aa484eb7c1f808ccf71c6e76")
    static let proof01 = ["084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5",
                          "f03808f5b8088c61286d505e8e93aa378991d9889ae2d874433ca06acabcd493"].map(bytes)
    static let proof13 = ["e77b9a9ae9e30b0dbdb6f510a264ef9de781501d7b6b92ae89eb059c5ab743db",
                          "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5",
                          "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a"].map(bytes)

    @Test func theSpecificationsProofsVerify() {
        #expect(MerkleMultiproof.verify(root: Self.root, leafCount: 5, positions: [0, 1], leaves: [Self.leaves[0], Self.leaves[1]],
                                        digests: Self.proof01))
        #expect(MerkleMultiproof.verify(root: Self.root, leafCount: 5, positions: [1, 3], leaves: [Self.leaves[1], Self.leaves[3]],
                                        digests: Self.proof13))
    }

    @Test func wrongProofsAreRefused() {
        let leaves01 = [Self.leaves[0], Self.leaves[1]]
        var flipped = Self.proof01
        flipped[1][0] ^= 1
        var wrongLeaf = leaves01
        wrongLeaf[0][31] ^= 0x80
        let cases: [(positions: [Int], leaves: [[UInt8]], digests: [[UInt8]])] = [
            ([0, 1], leaves01, flipped),                          // a digest changed
            ([0, 1], wrongLeaf, Self.proof01),                     // a leaf changed
            ([1, 0], leaves01, Self.proof01),                      // leaves at each other's places
            ([0, 1], leaves01, Array(Self.proof01.dropLast())),    // a digest missing
            ([0, 1], leaves01, Self.proof01 + [Self.leaves[2]]),   // a digest too many
            ([0, 0], leaves01, Self.proof01),                      // a leaf twice
            ([0, 5], leaves01, Self.proof01),                      // a position outside the tree
            ([], [], Self.proof01),                                // nothing opened
        ]
        for (index, bad) in cases.enumerated() {
            #expect(!MerkleMultiproof.verify(root: Self.root, leafCount: 5, positions: bad.positions, leaves: bad.leaves,
                                             digests: bad.digests), "case \(index)")
        }
    }

    /// The longest path, as the proofs' digest bound uses it (v7-1's hash circuit: 3,230 leaves, 13).
    @Test func pathLengths() {
        #expect([1, 2, 3, 5, 3_230, 1_964].map(MerkleMultiproof.pathLength) == [1, 2, 3, 4, 13, 12])
    }
}
