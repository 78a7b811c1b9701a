import CZlib

/// ZLIB (RFC 1950) decompression with a hard cap on the output, for status lists: a few compressed bytes can
/// declare gigabytes, so output beyond `maximumBytes` fails instead of growing.
enum ZlibInflate {
    enum Failure: Error, Equatable {
        case tooLarge(limit: Int)
        case corrupt(String)
    }

    static func inflate(_ input: [UInt8], maximumBytes: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("inflateInit failed")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var input = input
        var status: Int32 = Z_OK
        try input.withUnsafeMutableBufferPointer { (inputBuffer) throws(Failure) in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { chunkBuffer -> Int in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return chunkBuffer.count - Int(stream.avail_out)
                }
                guard status == Z_OK || status == Z_STREAM_END else {
                    throw .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
                }
                guard output.count + produced <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
                output += chunk[0..<produced]
                if status == Z_OK && produced == 0 && stream.avail_in == 0 {
                    throw .corrupt("truncated zlib stream")
                }
            } while status != Z_STREAM_END
        }
        guard stream.avail_in == 0 else { throw .corrupt("bytes after the end of the zlib stream") }
        return output
    }
}
