package builtins

import (
	"crypto/des"
	"encoding/binary"
	"math/rand"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestCrypt holds PostgreSQL 15 pgcrypto's crypt() for fixed salts.
func TestCrypt(t *testing.T) {
	for _, c := range []struct{ pw, salt, want string }{
		{"secret", "$2a$06$abcdefghijklmnopqrstuu", "$2a$06$abcdefghijklmnopqrstuuxLa0AkDDSrQ9VwNnETzOsObiucpMYgC"},
		{"x", "$2a$06$abcdefghijklmnopqrstuv", "$2a$06$abcdefghijklmnopqrstuu6UU9xzVsCmnpwOtAmb83C8f/bD4EL9K"},
		{"x", "$2a$06$abcdefghijklmnopqrstuuEXTRA", "$2a$06$abcdefghijklmnopqrstuu6UU9xzVsCmnpwOtAmb83C8f/bD4EL9K"},
		{"pässwörd", "$2x$05$abcdefghijklmnopqrstuu", "$2x$05$abcdefghijklmnopqrstuu7fBvhrteno3q3HcIu7ORNzGrSPOJXt6"},
		{"pässwörd", "$2a$05$abcdefghijklmnopqrstuu", "$2a$05$abcdefghijklmnopqrstuuZVEMa1pjhlynBQ1qXmSvGBJpN9h1w8G"},
		{"secret", "$1$saltsalt$", "$1$saltsalt$9xy1btjgzLYfb7hivXtC//"},
		{"x", "$1$abcdefghijk$", "$1$abcdefgh$znAnv9M.XU2pRYfmSs46h/"},
		{"x", "$1$ab$cd", "$1$ab$e2KlfqG5YBMTjSz7XF.Eu1"},
		{"x", "$1$", "$1$$LP5.V3ajGqHDdXW6XwZQy."},
		{"secret", "ab", "abNANd1rDfiNc"},
		{"", "ab", "abmF1QH4PEr.E"},
		{"x", "$2b$06$abcdefghijklmnopqrstuu", "$2W8vvRI/ALpM"},
		{"x", "é!", "éRnkxVxZKSmo"},
		{"longpassword123", "ab", "abD6HAB6eqg.k"},
		{"secret", "_J9..saltsalt", "_J9..saltLXKE4peqNCg"},
		{"x", "_J9..salX", "_J9..salXshoveWm4FFQ"},
		{"x", "_////....", "_////....tKXW81GC992"},
		{"longpassword123", "_J9..abcd", "_J9..abcd0iHacu2EIVQ"},
		{"x", "_zzz.abcd", "_zzz.abcdmOYmtZQrwcE"}, // 262143 passes
	} {
		got, err := pgCrypt(nil, c.pw, c.salt)
		if err != nil || got != c.want {
			t.Errorf("crypt(%q, %q) = %q, %v; want %q", c.pw, c.salt, got, err, c.want)
		}
	}
	for _, c := range []struct{ salt, code string }{
		{"$2a$03$abcdefghijklmnopqrstuu", "22023"},
		{"$2a$32$abcdefghijklmnopqrstuu", "22023"},
		{"$2a$6$abcdefghijklmnopqrstuu", "22023"},
		{"$2a$06$abcdefghijklmnopqrstu!", "22023"},
		{"$2a$06$abcdefghijklmnopqrstu", "22023"},
		{"$2$06$abcdefghijklmnopqrstuu", "39000"},
		{"", "22023"},
		{"a", "22023"},
		{"_J9..", "22023"},
		{"_....abcd", "39000"}, // a count of 0
	} {
		_, err := pgCrypt(nil, "x", c.salt)
		if code := pgerr.CodeOf(err); code.String() != c.code {
			t.Errorf("crypt('x', %q): %v, want SQLSTATE %s", c.salt, err, c.code)
		}
	}
}

// TestGenSalt checks each algorithm's salt shape and that crypt takes it.
func TestGenSalt(t *testing.T) {
	for _, c := range []struct {
		kind   string
		rounds int64
		prefix string
		length int
	}{
		{"bf", 0, "$2a$06$", 29}, {"BF", 4, "$2a$04$", 29}, {"md5", 0, "$1$", 11}, {"md5", 1000, "$1$", 11},
		{"xdes", 0, "_J9..", 9}, {"xdes", 1001, "_dD..", 9}, {"xdes", 16777215, "_zzzz", 9}, {"des", 0, "", 2}, {"des", 25, "", 2},
	} {
		s, err := genSalt(c.kind, c.rounds)
		if err != nil || !strings.HasPrefix(s, c.prefix) || len(s) != c.length {
			t.Errorf("gen_salt(%q, %d) = %q, %v", c.kind, c.rounds, s, err)
			continue
		}
		if c.rounds < 100000 {
			if _, err := pgCrypt(nil, "pw", s); err != nil {
				t.Errorf("crypt('pw', %q): %v", s, err)
			}
		}
	}
	for _, c := range []struct {
		kind   string
		rounds int64
	}{{"foo", 0}, {"bf", 3}, {"bf", 32}, {"bf", -1}, {"xdes", 1000}, {"xdes", -1}, {"xdes", 16777217}, {"des", 5}, {"md5", 5}} {
		if _, err := genSalt(c.kind, c.rounds); pgerr.CodeOf(err).String() != "22023" {
			t.Errorf("gen_salt(%q, %d): %v, want 22023", c.kind, c.rounds, err)
		}
	}
}

// TestDESPlain checks the salted DES with no salt against crypto/des.
func TestDESPlain(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200; i++ {
		key, block := r.Uint64(), r.Uint64()
		var kb, in, want [8]byte
		binary.BigEndian.PutUint64(kb[:], key)
		binary.BigEndian.PutUint64(in[:], block)
		c, err := des.NewCipher(kb[:])
		if err != nil {
			t.Fatal(err)
		}
		c.Encrypt(want[:], in[:])
		ks := desKeySchedule(key)
		if got := desEncrypt(&ks, block, 0, 1); got != binary.BigEndian.Uint64(want[:]) {
			t.Fatalf("DES(%016x, %016x) = %016x, want %x", key, block, got, want)
		}
	}
}
