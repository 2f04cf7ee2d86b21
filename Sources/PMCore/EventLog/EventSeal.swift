import PMSign

/// The signature a replica puts on each event it makes (RELIABILITY.md,
/// "bytes from elsewhere"): the replica's public key and its Ed25519
/// signature over the event's line without the signature.
///
/// A *signed replica*'s id is made from its public key (the first 16 bytes
/// of its SHA-256, as a UUID of version 8 and variant digit `b`), so any copy
/// checks an event without knowing the replica beforehand: the key must hash
/// to the event's replica, and the signature must be the key's. An event
/// claiming a signed replica without a valid seal is refused wherever it
/// comes from; only a signed event may be passed on by another copy
/// (forwarding). Replicas from before signatures (name-based ids) stay
/// unsigned and are taken only from their own file, as before.
public struct EventSeal: Equatable, Sendable {
    /// The replica's 32-byte Ed25519 public key.
    public var key: [UInt8]
    /// 64 bytes: the signature of ``EventSeal/message(of:)``.
    public var signature: [UInt8]

    public init(key: [UInt8], signature: [UInt8]) {
        self.key = key
        self.signature = signature
    }

    /// What is signed: a fixed prefix, then the event's line with its key but
    /// without its signature (the same bytes on every copy: lines are canonical).
    static func message(of event: Event) -> [UInt8] {
        Array("pm event 1\n".utf8) + EventCodec.line(event, withSignature: false)
    }

    /// The id of the replica whose public key is `key`.
    public static func replica(of key: [UInt8]) -> TaskID {
        let digest = Signing.sha256(key)
        var hex = Array(
            digest[0..<16].map { byte in
                let text = String(byte, radix: 16)
                return text.count == 1 ? "0" + text : text
            }.joined())
        hex[12] = "8"  // version 8: made by pm's own rule
        hex[16] = "b"  // variant 10, with a digit name-based ids never have
        let text = String(hex)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { text.dropFirst($0.lowerBound).prefix($0.count) }
        return TaskID(unchecked: parts.joined(separator: "-"))
    }

    /// Whether `replica` is a signed replica's id (its events must be sealed).
    public static func isSignedReplica(_ replica: TaskID) -> Bool {
        let bytes = Array(replica.rawValue.utf8)
        return bytes.count == 36 && bytes[14] == UInt8(ascii: "8") && bytes[19] == UInt8(ascii: "b")
    }

    /// Whether `event`'s seal is its replica's: the key hashes to the
    /// replica and the signature is the key's over the event.
    public static func isValid(_ event: Event) -> Bool {
        guard let seal = event.seal, seal.key.count == 32, seal.signature.count == 64,
            replica(of: seal.key) == event.replica
        else { return false }
        return Signing.isValid(seal.signature, of: message(of: event), publicKey: seal.key)
    }
}

/// Signs the events one replica makes: its key, held by its user alone.
public struct EventSigner: Sendable {
    /// The replica the key makes: every event it signs claims it.
    public let replica: TaskID
    let seed: [UInt8]
    let publicKey: [UInt8]

    /// Nil when `seed` is not a 32-byte private key.
    public init?(seed: [UInt8]) {
        guard seed.count == 32, let publicKey = Signing.publicKey(seed: seed) else { return nil }
        self.seed = seed
        self.publicKey = publicKey
        replica = EventSeal.replica(of: publicKey)
    }

    /// `event`, sealed when it is this replica's (any other is returned as it is).
    public func seal(_ event: Event) -> Event {
        guard event.replica == replica else { return event }
        var sealed = event
        sealed.seal = EventSeal(key: publicKey, signature: [])
        guard let signature = Signing.sign(EventSeal.message(of: sealed), seed: seed) else { return event }
        sealed.seal?.signature = signature
        return sealed
    }
}

/// Base64 with the URL alphabet and no padding (RFC 4648 §5): keys and
/// signatures in a line stay short and need no escaping.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's digit, 255 for a byte outside the alphabet: a lookup, not
    /// a search of the alphabet (every event read decodes a key and a signature).
    private static let digits: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (digit, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(digit) }
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = UInt32(0)
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
            for digit in 0...chunk.count { out.append(alphabet[Int((value >> (18 - 6 * digit)) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil for any other character, padding, or bits left over (one
    /// encoding per value: a line reads back as the same bytes).
    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        let digits = Self.digits
        var value = UInt32(0)
        var bits = 0
        for byte in text.utf8 {
            let digit = digits[Int(byte)]
            guard digit != 255 else { return nil }
            value = (value << 6) | UInt32(digit)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(value >> UInt32(bits)))
                value &= (1 << UInt32(bits)) - 1
            }
        }
        guard bits < 6, value == 0 else { return nil }
        return out
    }
}
