// Package pgenc is PostgreSQL's character encodings as zproxy converts
// them at the protocol boundary: a client may speak any encoding
// PostgreSQL lets a client speak (client_encoding), while every database
// zproxy serves is UTF8, so text is converted as it arrives and as it
// leaves, as PostgreSQL's pg_client_to_server and pg_server_to_client do.
//
// Names are read as pg_char_to_encoding reads them (any case, only
// letters and digits count, with PostgreSQL's aliases). The tables are
// golang.org/x/text's charsets, corrected where they differ from
// PostgreSQL's maps (checked against PostgreSQL 15 byte by byte for the
// single-byte encodings): the ISO 8859 parts' C1 range, KOI8-U's two box
// drawing characters and WIN1255's undefined 0xCA. Errors are
// PostgreSQL's: 22021 for bytes that are not a character of the encoding,
// 22P05 for a character the other encoding lacks.
package pgenc

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/transform"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Encoding is one of PostgreSQL's encodings.
type Encoding struct {
	// Name is PostgreSQL's name for it (pg_encoding_to_char): LATIN1,
	// WIN1252, SQL_ASCII ...
	Name string

	// convertible: zproxy converts between it and UTF8 (or needs no
	// conversion: UTF8, SQL_ASCII).
	convertible bool
	// sb is a single-byte encoding's characters by byte (-1: none; the
	// ASCII half is ASCII), rev its inverse.
	sb  *[256]rune
	rev map[rune]byte
	// mb is a multi-byte encoding's rules.
	mb *multiByte
}

// multiByte is how a multi-byte encoding is read: PostgreSQL's character
// length and verification (pg_wchar.c), which decide what is a character
// and what is 22021, and x/text's charset for the mapping.
type multiByte struct {
	mblen  func(s []byte) int // pg_encoding_mblen: how many bytes the lead byte claims
	verify func(s []byte) int // pg_encoding_verifymbchar: the character's length, or -1
	cs     encoding.Encoding
	// euc: a character is two bytes in 0xA1..0xFE (EUC_KR, which x/text
	// only has as its superset CP949).
	euc bool
	// fix are characters PostgreSQL's map has and x/text's lacks, by
	// their bytes; rev is its inverse.
	fix map[string]rune
	rev map[rune]string
}

var (
	byName = map[string]*Encoding{}
	// UTF8 is the server's encoding, and the client's by default.
	UTF8 = &Encoding{Name: "UTF8", convertible: true}
	// SQLASCII is SQL_ASCII: bytes pass through both ways unconverted.
	SQLASCII = &Encoding{Name: "SQL_ASCII", convertible: true}
)

// Lookup returns the encoding name names (pg_char_to_encoding), whether
// or not zproxy can convert it.
func Lookup(name string) (*Encoding, bool) {
	e, ok := byName[clean(name)]
	return e, ok
}

// Convertible reports whether zproxy can talk to a client in e.
func (e *Encoding) Convertible() bool { return e.convertible }

// Passthrough reports whether text in e needs no conversion to or from
// the server's UTF8: it is UTF8, or SQL_ASCII, whose bytes PostgreSQL
// passes through both ways.
func (e *Encoding) Passthrough() bool { return e == UTF8 || e == SQLASCII }

// clean is clean_encoding_name: letters and digits, lower case.
func clean(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		}
	}
	return string(b)
}

func register(e *Encoding, aliases ...string) {
	byName[clean(e.Name)] = e
	for _, a := range aliases {
		byName[clean(a)] = e
	}
}

// singleByte builds a single-byte encoding from x/text's charmap. iso:
// an ISO 8859 part, whose 0x80..0x9F are the C1 controls in PostgreSQL's
// maps (x/text leaves them undefined). fix overrides characters where
// PostgreSQL's map differs from x/text's (-1: none).
func singleByte(name string, cm *charmap.Charmap, iso bool, fix map[byte]rune) *Encoding {
	var t [256]rune
	rev := make(map[rune]byte, 128)
	for b := range 256 {
		r := cm.DecodeByte(byte(b))
		switch {
		case b < 0x80:
			r = rune(b)
		case iso && b < 0xa0:
			r = rune(b)
		case r == utf8.RuneError:
			r = -1
		}
		if f, ok := fix[byte(b)]; ok {
			r = f
		}
		t[b] = r
		if b >= 0x80 && r >= 0 {
			rev[r] = byte(b)
		}
	}
	return &Encoding{Name: name, convertible: true, sb: &t, rev: rev}
}

func init() {
	register(UTF8, "unicode")
	register(SQLASCII)
	iso := func(name string, cm *charmap.Charmap, aliases ...string) {
		register(singleByte(name, cm, true, nil), aliases...)
	}
	// PostgreSQL's LATINn are these ISO 8859 parts (encnames.c).
	iso("LATIN1", charmap.ISO8859_1, "ISO88591")
	iso("LATIN2", charmap.ISO8859_2, "ISO88592")
	iso("LATIN3", charmap.ISO8859_3, "ISO88593")
	iso("LATIN4", charmap.ISO8859_4, "ISO88594")
	iso("LATIN5", charmap.ISO8859_9, "ISO88599")
	iso("LATIN6", charmap.ISO8859_10, "ISO885910")
	iso("LATIN7", charmap.ISO8859_13, "ISO885913")
	iso("LATIN8", charmap.ISO8859_14, "ISO885914")
	iso("LATIN9", charmap.ISO8859_15, "ISO885915")
	iso("LATIN10", charmap.ISO8859_16, "ISO885916")
	iso("ISO_8859_5", charmap.ISO8859_5)
	iso("ISO_8859_6", charmap.ISO8859_6)
	iso("ISO_8859_7", charmap.ISO8859_7)
	iso("ISO_8859_8", charmap.ISO8859_8)
	register(singleByte("KOI8R", charmap.KOI8R, false, nil), "KOI8")
	// x/text's KOI8-U is WHATWG's (KOI8-RU's Ў and ў at 0xAE and 0xBE);
	// PostgreSQL's is RFC 2319's, box drawing characters there.
	register(singleByte("KOI8U", charmap.KOI8U, false, map[byte]rune{0xae: 0x255d, 0xbe: 0x256c}))
	register(singleByte("WIN866", charmap.CodePage866, false, nil), "ALT", "windows866")
	register(singleByte("WIN874", charmap.Windows874, false, nil), "windows874")
	for i, cm := range []*charmap.Charmap{charmap.Windows1250, charmap.Windows1251, charmap.Windows1252, charmap.Windows1253,
		charmap.Windows1254, charmap.Windows1255, charmap.Windows1256, charmap.Windows1257, charmap.Windows1258} {
		n := 1250 + i
		var fix map[byte]rune
		if n == 1255 {
			fix = map[byte]rune{0xca: -1} // x/text's HEBREW POINT HOLAM HASER FOR VAV; undefined in PostgreSQL's
		}
		register(singleByte(fmt.Sprintf("WIN%d", n), cm, false, fix), fmt.Sprintf("windows%d", n))
	}
	byName["win"] = byName["win1251"]
	byName["abc"], byName["tcvn"], byName["tcvn5712"], byName["vscii"] = byName["win1258"], byName["win1258"], byName["win1258"], byName["win1258"]

	// The multi-byte encodings whose x/text charset agrees with
	// PostgreSQL's map (compared over every BMP character and every two-
	// byte sequence; README's client_encoding says where they differ).
	// KS X 1001:2002 added the postal mark, which x/text's tables lack.
	postal := map[string]rune{"\xa2\xe8": 0x327e}
	mb := func(name string, m *multiByte, aliases ...string) {
		m.rev = make(map[rune]string, len(m.fix))
		for b, r := range m.fix {
			m.rev[r] = b
		}
		register(&Encoding{Name: name, convertible: true, mb: m}, aliases...)
	}
	mb("EUC_KR", &multiByte{mblen: eucMblen, verify: eucKRVerify, cs: korean.EUCKR, euc: true, fix: postal})
	mb("UHC", &multiByte{mblen: highBit2, verify: nonNulVerify(highBit2), cs: korean.EUCKR, fix: postal}, "win949", "windows949")
	mb("SJIS", &multiByte{mblen: sjisMblen, verify: sjisVerify, cs: japanese.ShiftJIS}, "mskanji", "shiftjis", "win932", "windows932")
	mb("GBK", &multiByte{mblen: highBit2, verify: nonNulVerify(highBit2), cs: simplifiedchinese.GBK}, "win936", "windows936")
	mb("GB18030", &multiByte{mblen: gb18030Mblen, verify: gb18030Verify, cs: simplifiedchinese.GB18030})

	// Encodings PostgreSQL has that zproxy does not convert: x/text lacks
	// them, or its charset maps common characters otherwise than
	// PostgreSQL's (BIG5 is WHATWG's Big5-HKSCS, thousands of differences;
	// EUC_JP encodes the IBM extensions in rows 0xF9..0xFC, PostgreSQL in
	// JIS X 0212; EUC_CN reads 0xA1A4 and 0xA1AA as GBK does, not as
	// GB 2312), and text would silently change.
	for _, n := range []string{"EUC_JP", "EUC_CN", "EUC_TW", "EUC_JIS_2004", "BIG5", "SHIFT_JIS_2004", "JOHAB", "MULE_INTERNAL"} {
		register(&Encoding{Name: n})
	}
}

// The multi-byte encodings' rules, as pg_wchar.c has them.

func isEUCByte(c byte) bool { return c >= 0xa1 && c <= 0xfe }

func highBit2(s []byte) int {
	if s[0] < 0x80 {
		return 1
	}
	return 2
}

// eucMblen is pg_euc_mblen: SS2 two bytes, SS3 three.
func eucMblen(s []byte) int {
	switch {
	case s[0] == 0x8e:
		return 2
	case s[0] == 0x8f:
		return 3
	case s[0] >= 0x80:
		return 2
	}
	return 1
}

// eucKRVerify is pg_euckr_verifychar (EUC_CN's too).
func eucKRVerify(s []byte) int {
	if s[0] < 0x80 {
		return 1
	}
	if len(s) < 2 || !isEUCByte(s[0]) || !isEUCByte(s[1]) {
		return -1
	}
	return 2
}

func sjisMblen(s []byte) int {
	switch c := s[0]; {
	case c >= 0xa1 && c <= 0xdf:
		return 1 // half-width katakana
	case c >= 0x80:
		return 2
	}
	return 1
}

func sjisVerify(s []byte) int {
	l := sjisMblen(s)
	if len(s) < l {
		return -1
	}
	if l == 1 {
		if c := s[0]; c >= 0x80 && !(c >= 0xa1 && c <= 0xdf) {
			return -1
		}
		return 1
	}
	head, tail := s[0], s[1]
	if !(head >= 0x81 && head <= 0x9f || head >= 0xe0 && head <= 0xfc) || !(tail >= 0x40 && tail <= 0x7e || tail >= 0x80 && tail <= 0xfc) {
		return -1
	}
	return 2
}

// nonNulVerify is the verification of BIG5, GBK and UHC: the bytes the
// lead byte claims are there and none is NUL.
func nonNulVerify(mblen func([]byte) int) func([]byte) int {
	return func(s []byte) int {
		l := mblen(s)
		if len(s) < l {
			return -1
		}
		for _, c := range s[1:l] {
			if c == 0 {
				return -1
			}
		}
		return l
	}
}

func gb18030Mblen(s []byte) int {
	switch {
	case s[0] < 0x80:
		return 1
	case len(s) > 1 && s[1] >= 0x30 && s[1] <= 0x39:
		return 4
	}
	return 2
}

func gb18030Verify(s []byte) int {
	c := s[0]
	if c < 0x80 {
		return 1
	}
	if c < 0x81 || c > 0xfe || len(s) < 2 {
		return -1
	}
	if s[1] >= 0x30 && s[1] <= 0x39 {
		if len(s) < 4 || s[2] < 0x81 || s[2] > 0xfe || s[3] < 0x30 || s[3] > 0x39 {
			return -1
		}
		return 4
	}
	if s[1] >= 0x40 && s[1] <= 0x7e || s[1] >= 0x80 && s[1] <= 0xfe {
		return 2
	}
	return -1
}

// byteList prints bytes as PostgreSQL's encoding errors do: 0xe2 0x82.
func byteList(b []byte) string {
	var sb strings.Builder
	for i, c := range b {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "0x%02x", c)
	}
	return sb.String()
}

// InvalidSequence is report_invalid_encoding: 22021 for the bytes at the
// start of rest that are no character of encoding enc (as many as its
// lead byte claims, at most 8).
func (e *Encoding) InvalidSequence(rest []byte) *pgerr.Error {
	n := 1
	switch {
	case e == UTF8 || e == SQLASCII:
		return pgerr.InvalidByteSequence(string(rest))
	case e.mb != nil:
		n = e.mb.mblen(rest)
	}
	n = min(n, len(rest), 8)
	return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"%s\": %s", e.Name, byteList(rest[:n]))
}

// CharCount is pg_verify_mbstr_len: how many characters src, text in e,
// holds by e's rules, nothing converted; 22021 at the first bytes that are
// no character of e (NUL included). A single-byte encoding's every other
// byte is a character, defined in its map or not.
func (e *Encoding) CharCount(src []byte) (int, error) {
	n := 0
	for i := 0; i < len(src); n++ {
		c := src[i]
		switch {
		case c == 0:
			return 0, e.InvalidSequence(src[i:])
		case c < 0x80 || e.sb != nil || e == SQLASCII:
			i++
		case e == UTF8:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size <= 1 {
				return 0, e.InvalidSequence(src[i:])
			}
			i += size
		default:
			l := e.mb.verify(src[i:])
			if l < 0 {
				return 0, e.InvalidSequence(src[i:])
			}
			i += l
		}
	}
	return n, nil
}

// untranslatable is report_untranslatable_char.
func untranslatable(b []byte, from, to string) *pgerr.Error {
	return pgerr.New(pgerr.UntranslatableCharacter, "character with byte sequence %s in encoding \"%s\" has no equivalent in encoding \"%s\"", byteList(b), from, to)
}

// asciiPrefix is how many bytes at the start of s are ASCII other than
// NUL, which every encoding here shares with UTF8.
func asciiPrefix(s []byte) int {
	for i, c := range s {
		if c >= 0x80 || c == 0 {
			return i
		}
	}
	return len(s)
}

// ToServer appends src, text in e, to dst converted to UTF8. Text in
// UTF8 or SQL_ASCII is checked, not converted: it must be UTF-8 without
// NUL, the server encoding's rule.
func (e *Encoding) ToServer(dst, src []byte) ([]byte, error) {
	if e.Passthrough() {
		if i := pgerr.InvalidUTF8(src); i >= 0 {
			return dst, pgerr.InvalidByteSequence(string(src[i:]))
		}
		return append(dst, src...), nil
	}
	var dec transform.Transformer
	var one [utf8.UTFMax]byte
	for len(src) > 0 {
		n := asciiPrefix(src)
		dst, src = append(dst, src[:n]...), src[n:]
		if len(src) == 0 {
			break
		}
		if src[0] == 0 {
			return dst, e.InvalidSequence(src)
		}
		if e.sb != nil {
			r := e.sb[src[0]]
			if r < 0 {
				return dst, untranslatable(src[:1], e.Name, "UTF8")
			}
			dst, src = utf8.AppendRune(dst, r), src[1:]
			continue
		}
		l := e.mb.verify(src)
		if l < 0 {
			return dst, e.InvalidSequence(src)
		}
		if r, ok := e.mb.fix[string(src[:l])]; ok {
			dst, src = utf8.AppendRune(dst, r), src[l:]
			continue
		}
		if dec == nil {
			dec = e.mb.cs.NewDecoder()
		}
		dec.Reset()
		nDst, nSrc, err := dec.Transform(one[:], src[:l], true)
		r, size := utf8.DecodeRune(one[:nDst])
		if err != nil || nSrc != l || size != nDst || r < utf8.RuneSelf ||
			r == utf8.RuneError && !(l == 4 && string(src[:4]) == "\x84\x31\xa4\x37") { // GB18030's own U+FFFD
			return dst, untranslatable(src[:l], e.Name, "UTF8")
		}
		dst, src = append(dst, one[:nDst]...), src[l:]
	}
	return dst, nil
}

// ToClient appends src, UTF8 text, to dst converted to e (unchanged for
// UTF8 and SQL_ASCII).
func (e *Encoding) ToClient(dst, src []byte) ([]byte, error) {
	if e.Passthrough() {
		return append(dst, src...), nil
	}
	var enc transform.Transformer
	var out [4]byte
	for len(src) > 0 {
		n := asciiPrefix(src)
		dst, src = append(dst, src[:n]...), src[n:]
		if len(src) == 0 {
			break
		}
		r, size := utf8.DecodeRune(src)
		if r == 0 || r == utf8.RuneError && size <= 1 {
			return dst, UTF8.InvalidSequence(src)
		}
		if e.sb != nil {
			b, ok := e.rev[r]
			if !ok {
				return dst, untranslatable(src[:size], "UTF8", e.Name)
			}
			dst, src = append(dst, b), src[size:]
			continue
		}
		if b, ok := e.mb.rev[r]; ok {
			dst, src = append(dst, b...), src[size:]
			continue
		}
		if enc == nil {
			enc = e.mb.cs.NewEncoder()
		}
		enc.Reset()
		nDst, nSrc, err := enc.Transform(out[:], src[:size], true)
		// A character outside ASCII never becomes ASCII (WHATWG's
		// encoders send ¥ as 0x5C, PostgreSQL's maps do not), and the
		// result must be one character PostgreSQL reads back.
		if err != nil || nSrc != size || nDst == 0 || out[0] < 0x80 || e.mb.verify(out[:nDst]) != nDst ||
			e.mb.euc && (nDst != 2 || !isEUCByte(out[0]) || !isEUCByte(out[1])) {
			return dst, untranslatable(src[:size], "UTF8", e.Name)
		}
		dst, src = append(dst, out[:nDst]...), src[size:]
	}
	return dst, nil
}

// Complete is the length of the longest prefix of src, text in e, that
// ends on a character boundary as far as the bytes show: what may be
// converted of a stream's chunk whose last character may continue in the
// next (COPY's data). Invalid bytes end no character early; ToServer
// reports them.
func (e *Encoding) Complete(src []byte) int {
	if e.sb != nil {
		return len(src)
	}
	i := 0
	for i < len(src) {
		var l int
		if e.mb != nil {
			if src[i] < 0x80 {
				i++
				continue
			}
			// GB18030's mblen reads the second byte, and a lone lead
			// byte counts two: either way the character is incomplete.
			l = e.mb.mblen(src[i:])
		} else {
			l = pgerr.UTF8SequenceLength(src[i])
		}
		if i+l > len(src) {
			return i
		}
		i += l
	}
	return len(src)
}
