import Crypto

/// Ed25519 signatures over plain bytes: the only place pm touches a
/// cryptographic library, so that the rest of pm deals in `[UInt8]`.
///
/// A replica signs each event it makes with a key only its user holds; any
/// copy checks the signature with the public key the event carries, whose
/// hash is the replica's id. So a copy may pass a teammate's events on, and
/// nobody can make an event in another replica's name.
public enum Signing {
    /// A new private key's 32-byte seed, from the system's random source.
    public static func newSeed() -> [UInt8] {
        Array(Curve25519.Signing.PrivateKey().rawRepresentation)
    }

    /// The 32-byte public key of `seed`; nil when `seed` is not 32 bytes.
    public static func publicKey(seed: [UInt8]) -> [UInt8]? {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else { return nil }
        return Array(key.publicKey.rawRepresentation)
    }

    /// The 64-byte signature of `message` by `seed`; nil when `seed` is not a key.
    public static func sign(_ message: [UInt8], seed: [UInt8]) -> [UInt8]? {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed),
            let signature = try? key.signature(for: message)
        else { return nil }
        return Array(signature)
    }

    /// Whether `signature` is `publicKey`'s over `message`.
    public static func isValid(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else {
            return false
        }
        return key.isValidSignature(signature, for: message)
    }

    /// SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }
}
