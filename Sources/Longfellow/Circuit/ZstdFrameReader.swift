import CZstd

/// The bytes of one zstd frame, decompressed a chunk at a time so that a circuit file's ~100 MB are never held at
/// once. The frame must declare its content size, at most `maximumContentSize`; the input must be exactly one frame
/// (nothing after it); a window above 8 MiB is refused. ``remaining`` is what the frame still declares, so a parser
/// can refuse a count that could not fit before allocating for it.
final class ZstdFrameReader {
    /// Nil when the bytes are served as they are (``init(uncompressed:)``).
    private let context: OpaquePointer?
    private let input: [UInt8]
    private var inputPosition = 0
    private var chunk: [UInt8]
    private var chunkLength = 0
    private var chunkPosition = 0
    /// Bytes the frame declares and that have not been read yet.
    private(set) var remaining: Int
    private var finished = false

    init(_ compressed: [UInt8], maximumContentSize: Int) throws(CircuitFileError) {
        let declared = compressed.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        // ZSTD_CONTENTSIZE_UNKNOWN and _ERROR are the two largest values.
        guard declared < UInt64.max - 1 else { throw CircuitFileError("the file is not a zstd frame that declares its size") }
        guard declared <= UInt64(maximumContentSize) else {
            throw CircuitFileError("the zstd frame declares \(declared) bytes; at most \(maximumContentSize)")
        }
        let frameSize = compressed.withUnsafeBytes { ZSTD_findFrameCompressedSize($0.baseAddress, $0.count) }
        guard ZSTD_isError(frameSize) == 0, frameSize == compressed.count else {
            throw CircuitFileError("the file is not exactly one zstd frame")
        }
        guard let context = ZSTD_createDCtx() else { throw CircuitFileError("zstd is unavailable") }
        ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, 23)
        self.context = context
        input = compressed
        remaining = Int(declared)
        chunk = [UInt8](repeating: 0, count: 1 << 17)
    }

    /// The bytes themselves, without zstd (the LFC1 parser's fuzz harness and tests).
    init(uncompressed bytes: [UInt8]) {
        context = nil
        input = []
        chunk = bytes
        chunkLength = bytes.count
        remaining = bytes.count
        finished = true
    }

    deinit {
        if let context { ZSTD_freeDCtx(context) }
    }

    /// Decompresses the next chunk; false at the end of the frame.
    private func refill() throws(CircuitFileError) -> Bool {
        guard !finished, let context else { return false }
        var produced = 0
        var code = 0
        let capacity = chunk.count
        input.withUnsafeBytes { source in
            chunk.withUnsafeMutableBytes { destination in
                var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: inputPosition)
                var outBuffer = ZSTD_outBuffer(dst: destination.baseAddress, size: capacity, pos: 0)
                code = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                inputPosition = inBuffer.pos
                produced = outBuffer.pos
            }
        }
        guard ZSTD_isError(code) == 0 else { throw CircuitFileError("the zstd frame does not decompress") }
        if code == 0 && produced == 0 { finished = true }
        guard produced <= remaining else { throw CircuitFileError("the zstd frame holds more than it declares") }
        chunkLength = produced
        chunkPosition = 0
        if produced == 0 && !finished && inputPosition == input.count { finished = true }
        return produced > 0
    }

    /// Copies the next `count` bytes into `destination` (appended); throws at the end of the data.
    func read(_ count: Int, into destination: inout [UInt8]) throws(CircuitFileError) {
        var left = count
        while left > 0 {
            if chunkPosition == chunkLength {
                guard try refill() else { throw CircuitFileError("the circuit ends early") }
            }
            let take = min(left, chunkLength - chunkPosition)
            destination.append(contentsOf: chunk[chunkPosition..<chunkPosition + take])
            chunkPosition += take
            remaining -= take
            left -= take
        }
    }

    /// One byte.
    func byte() throws(CircuitFileError) -> UInt8 {
        if chunkPosition == chunkLength {
            guard try refill() else { throw CircuitFileError("the circuit ends early") }
        }
        let value = chunk[chunkPosition]
        chunkPosition += 1
        remaining -= 1
        return value
    }

    /// A 3-byte little-endian number (the LFC1 size type).
    func number() throws(CircuitFileError) -> Int {
        if chunkLength - chunkPosition >= 3 {
            let value = Int(chunk[chunkPosition]) | Int(chunk[chunkPosition + 1]) << 8 | Int(chunk[chunkPosition + 2]) << 16
            chunkPosition += 3
            remaining -= 3
            return value
        }
        return Int(try byte()) | Int(try byte()) << 8 | Int(try byte()) << 16
    }

    /// Whether every declared byte was read and the frame is complete.
    func atEnd() throws(CircuitFileError) -> Bool {
        if chunkPosition < chunkLength || remaining > 0 { return false }
        // A frame that declared its size must end here: any further output is more than it declared.
        return try !refill()
    }
}

/// Why a circuit file was refused: the file name is added by whoever names it.
public struct CircuitFileError: Error, Sendable, CustomStringConvertible {
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
