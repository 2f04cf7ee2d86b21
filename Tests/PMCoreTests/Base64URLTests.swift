import Testing

@testable import PMCore

/// Keys and signatures in a line: one spelling per value, read by lookup.
@Suite struct Base64URLTests {
    @Test func everyLengthRoundTripsAndOnlyTheOneSpellingReads() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...70 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(Base64URL.decode(text) == bytes, "\(count)")
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        }
        // Bits left over after the last byte must be zero; a lone digit is no byte.
        #expect(Base64URL.decode("AA") == [0])
        #expect(Base64URL.decode("AB") == nil)
        #expect(Base64URL.decode("A") == nil)
        for bad in ["A=", "A+", "A/", "é", "A A", "\u{0}"] { #expect(Base64URL.decode(bad) == nil, "\(bad)") }
    }
}
