package pgenc

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func TestLookup(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"latin1", "LATIN1"}, {"Latin-1", "LATIN1"}, {"ISO88591", "LATIN1"}, {"iso_8859_1", "LATIN1"},
		{"ISO-8859-15", "LATIN9"}, {"iso8859_9", "LATIN5"}, {"win", "WIN1251"}, {"Windows-1252", "WIN1252"},
		{"ALT", "WIN866"}, {"koi8", "KOI8R"}, {"unicode", "UTF8"}, {"utf-8", "UTF8"}, {"sql_ascii", "SQL_ASCII"},
		{"mskanji", "SJIS"}, {"win949", "UHC"}, {"abc", "WIN1258"}, {"vscii", "WIN1258"}, {"EUC_JP", "EUC_JP"},
	} {
		e, ok := Lookup(c.name)
		if !ok || e.Name != c.want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", c.name, e, ok, c.want)
		}
	}
	for _, n := range []string{"auto", "latin11", "", "utf16"} {
		if _, ok := Lookup(n); ok {
			t.Errorf("Lookup(%q) found an encoding", n)
		}
	}
	for _, n := range []string{"MULE_INTERNAL", "EUC_TW", "BIG5", "EUC_JP", "EUC_CN"} {
		if e, _ := Lookup(n); e.Convertible() {
			t.Errorf("%s is convertible", n)
		}
	}
}

func TestConvert(t *testing.T) {
	for _, c := range []struct {
		enc            string
		client, server string
	}{
		{"LATIN1", "caf\xe9 \xff", "café ÿ"},
		{"LATIN1", "\x80\x9f", "\u0080\u009f"}, // C1 controls, as PostgreSQL's map
		{"LATIN2", "\x85", "\u0085"},
		{"LATIN9", "\xa4", "€"},
		{"WIN1252", "\x80 \x93q\x94", "€ “q”"},
		{"WIN1251", "\xcf\xf0\xe8", "При"},
		{"WIN866", "\x8f\xe0\xa8", "При"},
		{"KOI8R", "\xf0\xd2\xc9", "При"},
		{"KOI8U", "\xae\xbe\xa6", "╝╬і"}, // RFC 2319's, not WHATWG's
		{"ISO_8859_7", "\xe1", "α"},
		{"WIN1258", "\x80", "€"},
		{"SJIS", "\x82\xa0\xb1", "あｱ"},
		{"SJIS", "a\\b", "a\\b"},
		{"EUC_KR", "\xb0\xa1\xa2\xe8", "가㉾"},
		{"UHC", "\x81\x41", "갂"},
		{"GBK", "\xd6\xd0", "中"},
		{"GB18030", "\xd6\xd0\x81\x30\x81\x30\x90\x30\x81\x30", "中\u0080\U00010000"},
		{"LATIN1", "plain ascii", "plain ascii"},
	} {
		e, _ := Lookup(c.enc)
		got, err := e.ToServer(nil, []byte(c.client))
		if err != nil || string(got) != c.server {
			t.Errorf("%s ToServer(%q) = %q, %v; want %q", c.enc, c.client, got, err, c.server)
		}
		back, err := e.ToClient([]byte("x"), []byte(c.server))
		if err != nil || string(back) != "x"+c.client {
			t.Errorf("%s ToClient(%q) = %q, %v; want %q", c.enc, c.server, back, err, "x"+c.client)
		}
	}
}

func TestConvertErrors(t *testing.T) {
	for _, c := range []struct {
		enc, in  string
		toServer bool
		code     pgerr.Code
		msg      string
	}{
		{"LATIN1", "a\x00b", true, pgerr.CharacterNotInRepertoire, `invalid byte sequence for encoding "LATIN1": 0x00`},
		{"WIN1252", "a\x81b", true, pgerr.UntranslatableCharacter, `character with byte sequence 0x81 in encoding "WIN1252" has no equivalent in encoding "UTF8"`},
		{"WIN1255", "\xca", true, pgerr.UntranslatableCharacter, `character with byte sequence 0xca in encoding "WIN1255" has no equivalent in encoding "UTF8"`},
		{"SJIS", "x\x82'", true, pgerr.CharacterNotInRepertoire, `invalid byte sequence for encoding "SJIS": 0x82 0x27`},
		{"SJIS", "x\x82", true, pgerr.CharacterNotInRepertoire, `invalid byte sequence for encoding "SJIS": 0x82`},
		{"GB18030", "\x81\x30\x81", true, pgerr.CharacterNotInRepertoire, `invalid byte sequence for encoding "GB18030": 0x81 0x30 0x81`},
		{"SQL_ASCII", "\xe9';", true, pgerr.CharacterNotInRepertoire, `invalid byte sequence for encoding "UTF8": 0xe9 0x27 0x3b`},
		{"LATIN1", "x€", false, pgerr.UntranslatableCharacter, `character with byte sequence 0xe2 0x82 0xac in encoding "UTF8" has no equivalent in encoding "LATIN1"`},
		{"WIN1252", "Ā", false, pgerr.UntranslatableCharacter, `character with byte sequence 0xc4 0x80 in encoding "UTF8" has no equivalent in encoding "WIN1252"`},
		{"KOI8U", "ў", false, pgerr.UntranslatableCharacter, `character with byte sequence 0xd1 0x9e in encoding "UTF8" has no equivalent in encoding "KOI8U"`},
		{"SJIS", "¥", false, pgerr.UntranslatableCharacter, `character with byte sequence 0xc2 0xa5 in encoding "UTF8" has no equivalent in encoding "SJIS"`},
		{"EUC_KR", "갂", false, pgerr.UntranslatableCharacter, `character with byte sequence 0xea 0xb0 0x82 in encoding "UTF8" has no equivalent in encoding "EUC_KR"`},
	} {
		e, _ := Lookup(c.enc)
		var err error
		if c.toServer {
			_, err = e.ToServer(nil, []byte(c.in))
		} else {
			_, err = e.ToClient(nil, []byte(c.in))
		}
		pe := pgerr.As(err)
		if pe == nil || pe.Code != c.code || pe.Message != c.msg {
			t.Errorf("%s %q: %v; want %s %s", c.enc, c.in, err, c.code, c.msg)
		}
	}
}

// TestSingleByteRoundTrip: every byte a single-byte encoding defines
// comes back from UTF8 as itself.
func TestSingleByteRoundTrip(t *testing.T) {
	for _, e := range byName {
		if e.sb == nil {
			continue
		}
		for b := 1; b < 256; b++ {
			in := []byte{byte(b)}
			s, err := e.ToServer(nil, in)
			if err != nil {
				if e.sb[b] >= 0 {
					t.Errorf("%s: byte %#x: %v", e.Name, b, err)
				}
				continue
			}
			back, err := e.ToClient(nil, s)
			if err != nil || !bytes.Equal(back, in) {
				t.Errorf("%s: byte %#x came back as %q, %v", e.Name, b, back, err)
			}
		}
	}
}

func TestComplete(t *testing.T) {
	sjis, _ := Lookup("SJIS")
	gb, _ := Lookup("GB18030")
	l1, _ := Lookup("LATIN1")
	for _, c := range []struct {
		e    *Encoding
		in   string
		want int
	}{
		{sjis, "ab\x82", 2}, {sjis, "ab\x82\xa0", 4}, {sjis, "\xb1", 1},
		{gb, "a\x81", 1}, {gb, "a\x81\x30", 1}, {gb, "a\x81\x30\x81", 1}, {gb, "a\x81\x30\x81\x30", 5}, {gb, "a\xd6\xd0", 3},
		{l1, "\xe9", 1},
	} {
		if got := c.e.Complete([]byte(c.in)); got != c.want {
			t.Errorf("%s Complete(%q) = %d, want %d", c.e.Name, c.in, got, c.want)
		}
	}
}

// fuzzToServer checks what the client→server conversion must hold for
// any input: it never panics, its output is UTF-8 without NUL, and what
// it accepts converts back to the same bytes when the encoding maps
// characters one to one.
func fuzzToServer(f *testing.F, name string, roundTrip bool, seeds ...string) {
	e, _ := Lookup(name)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := e.ToServer(nil, in)
		if err != nil {
			if pgerr.As(err) == nil {
				t.Fatalf("%q: error %v is not a PostgreSQL error", in, err)
			}
			return
		}
		if !utf8.Valid(out) || bytes.IndexByte(out, 0) >= 0 {
			t.Fatalf("%q: converted to %q", in, out)
		}
		if n := e.Complete(in); n != len(in) {
			t.Fatalf("%q: converted whole, but Complete says %d", in, n)
		}
		if roundTrip {
			back, err := e.ToClient(nil, out)
			if err != nil || !bytes.Equal(back, in) {
				t.Fatalf("%q: came back as %q, %v", in, back, err)
			}
		}
	})
}

func FuzzToServerWIN1252(f *testing.F) {
	fuzzToServer(f, "WIN1252", true, "caf\xe9", "\x80\x81", "a\x00")
}

func FuzzToServerSJIS(f *testing.F) {
	// SJIS maps some characters twice (NEC's and IBM's rows): no round
	// trip to the same bytes.
	fuzzToServer(f, "SJIS", false, "\x82\xa0\xb1", "\x82'", "\x87\x40\xfa\x40", "\x81")
}
