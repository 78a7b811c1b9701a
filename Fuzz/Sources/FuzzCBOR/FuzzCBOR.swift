import CFuzzerDriver
import CBOR
import Foundation

/// Decodes any input; on success re-encodes the value and decodes that again, which must give the same value.
public func fuzzCBOR(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard let item = try? CBORDecoder().decode(bytes) else { return 0 }
    let value = item.value
    let encoded = CBOREncoder().encode(value)
    guard let again = try? CBORDecoder().decode(encoded) else { fatalError("re-encoded value does not decode") }
    if CBOREncoder().encode(again.value) != encoded { fatalError("encoding is not stable") }
    return 0
}

/// libFuzzer's driver with this harness (`FuzzCBOR -help=1` lists its flags).
@main
enum FuzzCBORMain {
    static func main() {
        exit(verifierd_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzCBOR))
    }
}
