//! A reader for the RON Nefia writes, several times faster than `ron`'s own parser on it.
//!
//! `ron` checks for comments before every token and walks the text by `char`; a save of
//! 100,000 objects took longer to parse than the whole save took to write. What Nefia writes
//! uses a small part of RON: structs without names, lists, maps, `Some`/`None` or bare
//! optional values, enum variants, plain identifiers, decimal numbers and strings with the
//! escapes `ron`'s writer makes. This reader reads exactly that part, byte by byte, and
//! declines everything else — comments, raw strings and identifiers, struct names (but in a
//! value it skips), hex or `_`-separated numbers, `inf` and `NaN`, chars, bytes, deep nesting,
//! any error at all. A declined text is read by `ron` instead ([`super::from_ron_str`]), so
//! `ron` stays the one judge of what is wrong with a file and where. What the reader accepts,
//! `ron` reads the same: the differential tests in `tests/tests/fuzz_loaders.rs` (mutated
//! files, random values) and this module's own hold it to that.

use std::borrow::Cow;
use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// Why the reader gave up: the text uses RON beyond what Nefia writes, or is wrong. Only
/// `ron` says which, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declined;

impl fmt::Display for Declined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not in the RON Nefia writes")
    }
}

impl std::error::Error for Declined {}

impl de::Error for Declined {
    fn custom<T: fmt::Display>(_: T) -> Declined {
        Declined
    }
}

type Result<T> = std::result::Result<T, Declined>;

/// How deeply values may nest. `ron` counts each container and each element in it against
/// its limit of 128, so it reads whatever nests this deep; deeper text is left to `ron` (which
/// may refuse it), and a hostile file cannot overflow the stack.
const MAX_DEPTH: u32 = 40;

/// Reads `text` as one `T`, or declines.
pub fn read<'de, T: serde::Deserialize<'de>>(text: &'de str) -> Result<T> {
    let mut reader = Reader { text, pos: 0, depth: 0 };
    let value = T::deserialize(&mut reader)?;
    reader.skip_ws();
    if reader.pos == text.len() { Ok(value) } else { Err(Declined) }
}

/// The text and how far it has been read.
struct Reader<'de> {
    text: &'de str,
    pos: usize,
    depth: u32,
}

/// A number as written: its text and whether it is a float.
struct Number<'de> {
    text: &'de str,
    float: bool,
}

fn is_ident_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_'
}

fn is_ident_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

impl<'de> Reader<'de> {
    /// The next byte, if any.
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Skips the whitespace Nefia writes (no comments: those are declined).
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Skips whitespace and takes `byte` if it is next.
    fn take(&mut self, byte: u8) -> bool {
        self.skip_ws();
        let next = self.peek() == Some(byte);
        if next {
            self.pos += 1;
        }
        next
    }

    /// Skips whitespace and takes `byte`, or declines.
    fn expect(&mut self, byte: u8) -> Result<()> {
        if self.take(byte) { Ok(()) } else { Err(Declined) }
    }

    /// An identifier of ASCII letters, digits and `_`. Declines where `ron` would read
    /// more than that: a raw identifier or string (`r#x`, `r"x"`, `b"x"`) or a letter
    /// beyond ASCII.
    fn ident(&mut self) -> Result<&'de str> {
        self.skip_ws();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        if !bytes.get(start).copied().is_some_and(is_ident_start) {
            return Err(Declined);
        }
        let mut end = start + 1;
        while bytes.get(end).copied().is_some_and(is_ident_byte) {
            end += 1;
        }
        if bytes.get(end).is_some_and(|&b| b == b'#' || b == b'"' || b == b'\'' || !b.is_ascii()) {
            return Err(Declined);
        }
        self.pos = end;
        Ok(&self.text[start..end])
    }

    /// Takes the identifier `word` if it is next.
    fn take_ident(&mut self, word: &str) -> bool {
        let start = self.pos;
        match self.ident() {
            Ok(found) if found == word => true,
            _ => {
                self.pos = start;
                false
            }
        }
    }

    /// A string in double quotes: borrowed from the text unless it has escapes (see
    /// [`Reader::escape`]). Declines control characters.
    fn string(&mut self) -> Result<Cow<'de, str>> {
        self.expect(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut end = start;
        loop {
            match bytes.get(end) {
                Some(b'"') => {
                    self.pos = end + 1;
                    return Ok(Cow::Borrowed(&self.text[start..end]));
                }
                Some(b'\\') => break,
                Some(&b) if b >= 0x20 => end += 1,
                _ => return Err(Declined),
            }
        }
        let mut owned = String::from(&self.text[start..end]);
        let mut rest = end;
        loop {
            match bytes.get(rest) {
                Some(b'"') => {
                    self.pos = rest + 1;
                    return Ok(Cow::Owned(owned));
                }
                Some(b'\\') => {
                    let (escaped, length) = self.escape(rest + 1)?;
                    owned.push(escaped);
                    rest += 1 + length;
                }
                Some(&b) if b >= 0x20 => {
                    // Copy the run up to the next quote or escape whole (it is valid UTF-8:
                    // both ends are ASCII).
                    let run = bytes[rest..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
                    let run_end = run.map_or(bytes.len(), |n| rest + n);
                    owned.push_str(&self.text[rest..run_end]);
                    rest = run_end;
                }
                _ => return Err(Declined),
            }
        }
    }

    /// The character an escape stands for, from the byte after its backslash, and how many
    /// bytes it takes there: `\"`, `\'`, `\\`, `\n`, `\r`, `\t`, `\0`, and `\u{…}` with one to
    /// six hex digits of a valid character (what `ron`'s writer writes for `'`, combining marks
    /// and anything not printable). Declines the others (`\x`, line continuations).
    fn escape(&self, at: usize) -> Result<(char, usize)> {
        let bytes = self.text.as_bytes();
        let simple = match bytes.get(at) {
            Some(b'"') => '"',
            Some(b'\'') => '\'',
            Some(b'\\') => '\\',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'0') => '\0',
            Some(b'u') if bytes.get(at + 1) == Some(&b'{') => {
                let digits = bytes[at + 2..].iter().take(7).take_while(|b| b.is_ascii_hexdigit()).count();
                if !(1..=6).contains(&digits) || bytes.get(at + 2 + digits) != Some(&b'}') {
                    return Err(Declined);
                }
                let hex = &self.text[at + 2..at + 2 + digits];
                let code = u32::from_str_radix(hex, 16).map_err(|_| Declined)?;
                return char::from_u32(code).map(|c| (c, digits + 3)).ok_or(Declined);
            }
            _ => return Err(Declined),
        };
        Ok((simple, 1))
    }

    /// A decimal number: `-`, digits without a leading zero, then for a float a fraction
    /// and an exponent. Declines anything that runs on into a letter, `_` or `.` (suffixes,
    /// ranges, hex).
    fn number(&mut self) -> Result<Number<'de>> {
        self.skip_ws();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut at = start;
        if bytes.get(at) == Some(&b'-') {
            at += 1;
        }
        let digits = |at: usize| bytes[at.min(bytes.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
        let whole = digits(at);
        if whole == 0 || (whole > 1 && bytes[at] == b'0') {
            return Err(Declined);
        }
        at += whole;
        let mut float = false;
        if bytes.get(at) == Some(&b'.') {
            let fraction = digits(at + 1);
            if fraction == 0 {
                return Err(Declined);
            }
            at += 1 + fraction;
            float = true;
        }
        if let Some(b'e' | b'E') = bytes.get(at) {
            at += 1;
            if let Some(b'+' | b'-') = bytes.get(at) {
                at += 1;
            }
            let exponent = digits(at);
            if exponent == 0 {
                return Err(Declined);
            }
            at += exponent;
            float = true;
        }
        if bytes.get(at).is_some_and(|&b| is_ident_byte(b) || b == b'.' || !b.is_ascii()) {
            return Err(Declined);
        }
        self.pos = at;
        Ok(Number { text: &self.text[start..at], float })
    }

    /// A whole number of type `T`, or declines (a float, or out of `T`'s range).
    fn integer<T: std::str::FromStr>(&mut self) -> Result<T> {
        let number = self.number()?;
        if number.float {
            return Err(Declined);
        }
        number.text.parse().map_err(|_| Declined)
    }

    /// A float written with a fraction or an exponent.
    fn float(&mut self) -> Result<f64> {
        let number = self.number()?;
        if !number.float {
            return Err(Declined);
        }
        number.text.parse().map_err(|_| Declined)
    }

    /// Runs `read` one level deeper, declining past [`MAX_DEPTH`].
    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(Declined);
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    /// Reads `open`, elements visited by `visit`, and `close`.
    fn enclosed<T>(&mut self, open: u8, close: u8, visit: impl FnOnce(Separated<'_, 'de>) -> Result<T>) -> Result<T> {
        self.expect(open)?;
        let value = self.nested(|reader| visit(Separated { reader, close, had_comma: true }))?;
        self.expect(close)?;
        Ok(value)
    }

    /// Skips one value of any kind the reader knows, structs and enum variants included
    /// (what a struct that ignores unknown fields skips).
    fn skip_value(&mut self) -> Result<()> {
        self.skip_ws();
        match self.peek() {
            Some(b'"') => self.string().map(drop),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            Some(b'[') => self.enclosed(b'[', b']', |mut list| list.each(Reader::skip_value)),
            Some(b'{') => self.enclosed(b'{', b'}', |mut map| {
                map.each(|reader| {
                    reader.skip_value()?;
                    reader.expect(b':')?;
                    reader.skip_value()
                })
            }),
            Some(b'(') => self.skip_parenthesized(),
            Some(b) if is_ident_start(b) => match self.ident()? {
                // Whole values to `ron`: nothing may follow them.
                "true" | "false" | "None" | "inf" | "inff32" | "inff64" | "NaN" | "NaNf32" | "NaNf64" => Ok(()),
                "Some" => self.enclosed(b'(', b')', |inner| {
                    inner.reader.skip_value()?;
                    inner.reader.take(b',');
                    Ok(())
                }),
                // A unit variant, or a variant or struct name before its `(…)`.
                _ => {
                    self.skip_ws();
                    if self.peek() == Some(b'(') { self.skip_parenthesized() } else { Ok(()) }
                }
            },
            _ => Err(Declined),
        }
    }

    /// Skips `(…)`: a struct's `name: value` fields or a tuple's values.
    fn skip_parenthesized(&mut self) -> Result<()> {
        self.enclosed(b'(', b')', |mut items| {
            let mut named = None;
            items.each(|reader| {
                let start = reader.pos;
                let is_field = reader.ident().is_ok() && reader.take(b':');
                if !is_field {
                    reader.pos = start;
                }
                if *named.get_or_insert(is_field) != is_field {
                    return Err(Declined);
                }
                reader.skip_value()
            })
        })
    }
}

/// The elements of a list, map, tuple or struct: each followed by a comma but the last,
/// which may have one too, up to the closing byte (which the caller takes).
struct Separated<'a, 'de> {
    reader: &'a mut Reader<'de>,
    close: u8,
    /// Whether a comma followed the element before (or none came yet).
    had_comma: bool,
}

impl<'de> Separated<'_, 'de> {
    /// Whether another element follows.
    fn has_next(&mut self) -> Result<bool> {
        self.reader.skip_ws();
        if self.reader.peek() == Some(self.close) {
            Ok(false)
        } else if self.had_comma {
            Ok(true)
        } else {
            Err(Declined)
        }
    }

    /// Takes the comma after an element, if there is one.
    fn end_element(&mut self) {
        self.had_comma = self.reader.take(b',');
    }

    /// Calls `read` on each element in turn.
    fn each(&mut self, mut read: impl FnMut(&mut Reader<'de>) -> Result<()>) -> Result<()> {
        while self.has_next()? {
            read(self.reader)?;
            self.end_element();
        }
        Ok(())
    }
}

impl<'de> SeqAccess<'de> for Separated<'_, 'de> {
    type Error = Declined;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.has_next()? {
            return Ok(None);
        }
        let element = seed.deserialize(&mut *self.reader)?;
        self.end_element();
        Ok(Some(element))
    }
}

impl<'de> MapAccess<'de> for Separated<'_, 'de> {
    type Error = Declined;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.has_next()? {
            return Ok(None);
        }
        let key = seed.deserialize(&mut *self.reader)?;
        self.reader.expect(b':')?;
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let value = seed.deserialize(&mut *self.reader)?;
        self.end_element();
        Ok(value)
    }
}

/// An enum value: a variant's name, then nothing (unit), `(value)` (newtype), `(a, b)`
/// (tuple) or `(field: value, …)` (struct).
struct Variant<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'a, 'de> EnumAccess<'de> for Variant<'a, 'de> {
    type Error = Declined;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let name = self.reader.ident()?;
        let variant = seed.deserialize(IntoDeserializer::<Declined>::into_deserializer(name))?;
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Declined;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        self.reader.enclosed(b'(', b')', |inner| {
            let value = seed.deserialize(&mut *inner.reader)?;
            inner.reader.take(b',');
            Ok(value)
        })
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.reader.enclosed(b'(', b')', |items| visitor.visit_seq(items))
    }

    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], visitor: V) -> Result<V::Value> {
        self.reader.enclosed(b'(', b')', |fields| visitor.visit_map(fields))
    }
}

/// Integer types read the same way.
macro_rules! integers {
    ($($method:ident => $visit:ident: $ty:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(self.integer::<$ty>()?)
        }
    )*};
}

/// What the reader declines outright.
macro_rules! declined {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
            Err(Declined)
        }
    )*};
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = Declined;

    integers!(deserialize_i8 => visit_i8: i8, deserialize_i16 => visit_i16: i16,
        deserialize_i32 => visit_i32: i32, deserialize_i64 => visit_i64: i64,
        deserialize_u8 => visit_u8: u8, deserialize_u16 => visit_u16: u16,
        deserialize_u32 => visit_u32: u32, deserialize_u64 => visit_u64: u64);

    declined!(deserialize_f32, deserialize_char, deserialize_bytes, deserialize_byte_buf);

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws();
        match self.peek() {
            Some(b'"') => self.deserialize_str(visitor),
            Some(b'[') => self.deserialize_seq(visitor),
            Some(b'{') => self.deserialize_map(visitor),
            // `()` exactly: with anything inside, `ron` would read a struct or a tuple.
            Some(b'(') if self.text.as_bytes().get(self.pos + 1) == Some(&b')') => {
                self.pos += 2;
                visitor.visit_unit()
            }
            Some(b'-' | b'0'..=b'9') => {
                let number = self.number()?;
                if number.float {
                    visitor.visit_f64(number.text.parse().map_err(|_| Declined)?)
                } else {
                    visitor.visit_i64(number.text.parse().map_err(|_| Declined)?)
                }
            }
            Some(b) if is_ident_start(b) => {
                let start = self.pos;
                match self.ident()? {
                    "true" => visitor.visit_bool(true),
                    "false" => visitor.visit_bool(false),
                    "None" | "Some" => {
                        self.pos = start;
                        self.deserialize_option(visitor)
                    }
                    _ => Err(Declined),
                }
            }
            _ => Err(Declined),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.ident()? {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(Declined),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f64(self.float()?)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.string()? {
            Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
            Cow::Owned(text) => visitor.visit_string(text),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    /// `None`, `Some(value)`, or (as Nefia writes it) the value bare.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws();
        if self.take_ident("None") {
            visitor.visit_none()
        } else if self.take_ident("Some") {
            self.enclosed(b'(', b')', |inner| {
                let value = visitor.visit_some(&mut *inner.reader)?;
                inner.reader.take(b',');
                Ok(value)
            })
        } else {
            self.nested(|reader| visitor.visit_some(reader))
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws();
        if self.text.as_bytes().get(self.pos..self.pos + 2) == Some(b"()") {
            self.pos += 2;
            visitor.visit_unit()
        } else {
            Err(Declined)
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, _: V) -> Result<V::Value> {
        Err(Declined)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, _: V) -> Result<V::Value> {
        Err(Declined)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.enclosed(b'[', b']', |items| visitor.visit_seq(items))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.enclosed(b'(', b')', |items| visitor.visit_seq(items))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _: &'static str, len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.enclosed(b'{', b'}', |entries| visitor.visit_map(entries))
    }

    /// `(name: value, …)`, without the struct's name. `ron` reads `Range` and its kin
    /// specially; they are declined.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if name.starts_with("Range") {
            return Err(Declined);
        }
        self.enclosed(b'(', b')', |fields| visitor.visit_map(fields))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.nested(|reader| visitor.visit_enum(Variant { reader }))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.ident()?)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_value()?;
        visitor.visit_unit()
    }
}

#[cfg(test)]
mod tests;
