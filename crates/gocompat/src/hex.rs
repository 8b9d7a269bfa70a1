//! Go's `encoding/hex.EncodeToString`: lowercase hexadecimal, as provider
//! hashes (`zh:`) and AWS SigV4 signatures print digests.

/// `bytes` as lowercase hexadecimal, two digits a byte.
pub fn encode_to_string(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn lowercase_two_digits_a_byte() {
        assert_eq!(
            super::encode_to_string(&[0x00, 0x0f, 0xa0, 0xff]),
            "000fa0ff"
        );
        assert_eq!(super::encode_to_string(&[]), "");
    }
}
