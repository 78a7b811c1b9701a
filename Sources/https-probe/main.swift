// A URLSession (libcurl) client for the TLS interoperability tests: sends one request and prints the status code on
// the first line and the body after it. Exit 0 when a response arrived (any status), 1 when the request failed.
//
//   https-probe METHOD URL [BODY-FILE] [--header "Name: value"]...
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
var headers: [(String, String)] = []
while let index = arguments.firstIndex(of: "--header"), index + 1 < arguments.count {
    let field = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    let parts = field.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
    if parts.count == 2 { headers.append((parts[0], parts[1])) }
}
guard arguments.count >= 2, let url = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: https-probe METHOD URL [BODY-FILE] [--header \"Name: value\"]...\n".utf8))
    exit(2)
}
var request = URLRequest(url: url)
request.httpMethod = arguments[0]
if arguments.count >= 3 {
    request.httpBody = FileManager.default.contents(atPath: arguments[2])
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
}
for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
do {
    let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
    FileHandle.standardOutput.write(Data("\((response as? HTTPURLResponse)?.statusCode ?? 0)\n".utf8) + data)
    exit(0)
} catch {
    FileHandle.standardError.write(Data("https-probe: \(error)\n".utf8))
    exit(1)
}
