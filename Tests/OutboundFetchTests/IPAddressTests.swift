import OutboundFetch
import Testing

/// The address ranges a fetch refuses by default, in every form that reaches them.
struct IPAddressTests {
    @Test(arguments: [
        "127.0.0.1", "127.255.0.9", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
        "169.254.169.254", "100.64.0.1", "100.127.255.254", "224.0.0.1", "239.255.255.250", "255.255.255.255",
        "::1", "::", "fe80::1", "fd00::1", "fc00::5", "ff02::1", "fec0::1",
        "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:10.0.0.1", "::127.0.0.1", "64:ff9b::7f00:1",
        "64:ff9b::a9fe:a9fe", "2002:7f00:1::", "2002:c0a8:101::1",
    ])
    func restrictedAddressesAreNamed(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.restrictedRange != nil, "\(text)")
    }

    @Test(arguments: ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "169.253.1.1", "2001:4860:4860::8888",
                      "64:ff9b::808:808", "2002:808:808::1"])
    func publicAddressesAreNot(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.restrictedRange == nil, "\(text)")
    }

    @Test func parsingIsStrict() {
        for text in ["", "1.2.3", "1.2.3.4.5", "01.2.3.4", "256.1.1.1", "1.2.3.4 ", "example.com", ":::", "1::2::3",
                     "12345::", "fe80::1%eth0", "::ffff:1.2.3"] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
        #expect(IPAddress("::ffff:7f00:1")?.embeddedIPv4 == IPAddress("127.0.0.1"))
        #expect(IPAddress("2001:db8::1")?.description == "2001:db8:0:0:0:0:0:1")
    }

    @Test func allowlistEntriesAreHostAndPort() {
        #expect(AllowedDestination("127.0.0.1:8443")?.description == "127.0.0.1:8443")
        #expect(AllowedDestination("[::1]:8443")?.description == "[0:0:0:0:0:0:0:1]:8443")
        #expect(AllowedDestination("Status.Internal:443")?.description == "status.internal:443")
        for text in ["127.0.0.1", "127.0.0.1:0", "127.0.0.1:65536", "::1:80", "[127.0.0.1]:80", "host:", ":80",
                     "bad_host:80", "http://host:80", "host:80/path", "[::1]80"] {
            #expect(AllowedDestination(text) == nil, "\(text)")
        }
    }

    @Test func schemeRules() {
        let policy = DestinationPolicy(allowed: [AllowedDestination("127.0.0.1:8000")!])
        #expect(policy.refusal(scheme: "https", host: "lists.example.com", port: 443, previousScheme: nil) == nil)
        #expect(policy.refusal(scheme: "http", host: "lists.example.com", port: 80, previousScheme: nil) != nil)
        #expect(policy.refusal(scheme: "http", host: "127.0.0.1", port: 8000, previousScheme: nil) == nil)
        #expect(policy.refusal(scheme: "http", host: "127.0.0.1", port: 8000, previousScheme: "https")?
            .contains("https to http") == true)
        #expect(policy.refusal(scheme: "file", host: "", port: 0, previousScheme: nil) != nil)
        #expect(policy.refusal(scheme: "gopher", host: "127.0.0.1", port: 8000, previousScheme: nil) != nil)
    }

    /// Special-use names (RFC 6761, 6762, 7686) are never resolved unless the allowlist names them; with public
    /// destinations off, nothing but the allowlist is.
    @Test func specialUseNamesAndPublicDestinationsOff() {
        let policy = DestinationPolicy(allowed: [AllowedDestination("crl.test:8080")!])
        for host in ["verifierd.example", "a.b.invalid", "x.test", "printer.local", "abc.onion", "VERIFIERD.EXAMPLE."] {
            #expect(policy.refusal(scheme: "https", host: host, port: 443, previousScheme: nil)?.contains("special-use") == true, "\(host)")
        }
        #expect(policy.refusal(scheme: "http", host: "crl.test", port: 8080, previousScheme: nil) == nil)
        #expect(policy.refusal(scheme: "https", host: "example.com", port: 443, previousScheme: nil) == nil)
        #expect(policy.refusal(scheme: "https", host: "testing.org", port: 443, previousScheme: nil) == nil)
        let closed = DestinationPolicy(allowed: [AllowedDestination("127.0.0.1:8000")!], allowsPublicDestinations: false)
        #expect(closed.refusal(scheme: "https", host: "example.com", port: 443, previousScheme: nil)?
            .contains("outbound.publicDestinations is false") == true)
        #expect(closed.refusal(scheme: "http", host: "127.0.0.1", port: 8000, previousScheme: nil) == nil)
    }

    @Test func connectionRules() {
        let policy = DestinationPolicy(allowed: [AllowedDestination("127.0.0.1:8000")!, AllowedDestination("lists.internal:80")!])
        let loopback = IPAddress("127.0.0.1")!
        #expect(policy.refusal(connectingTo: loopback, port: 8000, urlHost: "127.0.0.1") == nil)
        #expect(policy.refusal(connectingTo: loopback, port: 8001, urlHost: "127.0.0.1")?.contains("loopback") == true)
        #expect(policy.refusal(connectingTo: IPAddress("::ffff:127.0.0.1")!, port: 8001, urlHost: "x") != nil)
        // A name entry opens what that name resolves to, on its port only.
        #expect(policy.refusal(connectingTo: IPAddress("10.0.0.5")!, port: 80, urlHost: "lists.internal") == nil)
        #expect(policy.refusal(connectingTo: IPAddress("10.0.0.5")!, port: 80, urlHost: "other.internal") != nil)
        #expect(policy.refusal(connectingTo: IPAddress("8.8.8.8")!, port: 443, urlHost: "dns.example") == nil)
        // The service's own ports stay closed on this machine, allowlisted or not.
        policy.refuse(listeningPorts: [8000])
        #expect(policy.refusal(connectingTo: loopback, port: 8000, urlHost: "127.0.0.1")?.contains("own listening port") == true)
        #expect(policy.refusal(connectingTo: IPAddress("0.0.0.0")!, port: 8000, urlHost: "0.0.0.0") != nil)
    }
}
