import CLongfellowCLMUL
import LongfellowAlgebra

/// The hash circuit's quad binding on the CPU's carry-less multiplication (one loop in C, the last product of
/// each term accumulated unreduced). The indexes were bounded when the circuit was read.
enum QuadBinding {
    /// Field is GF2_128 here (its layout is two 64-bit words, as vd_gf128's).
    static func gf2_128<Field: LongfellowField>(_ layer: LayeredCircuit<Field>.Layer, values: [Field], eqG: [Field],
                                                eqH0: [Field], eqH1: [Field]) -> GF2_128 {
        func raw(_ array: [Field], _ body: (UnsafePointer<vd_gf128>?) -> vd_gf128) -> vd_gf128 {
            array.withUnsafeBufferPointer { buffer in
                UnsafeRawBufferPointer(buffer).withMemoryRebound(to: vd_gf128.self) { body($0.baseAddress) }
            }
        }
        let sum = layer.stepIndexes.withUnsafeBufferPointer { indexes in
            layer.steps.withUnsafeBufferPointer { steps in
                steps.withMemoryRebound(to: vd_quad_step.self) { stepPointer in
                    raw(values) { v in
                        raw(eqG) { g in
                            raw(eqH0) { h0 in
                                raw(eqH1) { h1 in
                                    vd_gf128_bind_steps_clmul(indexes.baseAddress, indexes.count, stepPointer.baseAddress, v, g, h0, h1)
                                }
                            }
                        }
                    }
                }
            }
        }
        return GF2_128(low: sum.low, high: sum.high)
    }
}
