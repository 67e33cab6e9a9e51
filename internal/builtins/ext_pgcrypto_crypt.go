package builtins

import (
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"strings"

	"golang.org/x/crypto/blowfish"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pgcrypto's crypt() and gen_salt(): the password hashes of crypt(3) that
// pgcrypto has, chosen by the salt's prefix as its px_crypt does — $2a$
// and $2x$ Blowfish (bcrypt), $1$ MD5, _ extended DES, anything else
// traditional DES — each producing pgcrypto's text byte for byte
// (TestCrypt holds PostgreSQL's outputs). Blowfish itself is
// golang.org/x/crypto/blowfish; bcrypt's key schedule, MD5-crypt and the
// salted DES are written here from their published descriptions, since
// no library takes a salt the way crypt(3) does.

// cryptA64 is crypt(3)'s alphabet for MD5 and DES hashes and salts.
const cryptA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// bcryptAlphabet is bcrypt's base64 alphabet (bcryptB64, unpadded).
const bcryptAlphabet = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

var bcryptB64 = base64.NewEncoding(bcryptAlphabet).WithPadding(base64.NoPadding)

func errInvalidSalt() error { return pgerr.New(pgerr.InvalidParameterValue, "invalid salt") }

// errCryptNull is pgcrypto's answer when crypt(3) itself fails (a salt
// naming the withdrawn $2$, an extended DES salt of count 0).
func errCryptNull() error {
	return pgerr.New(pgerr.ExternalRoutineInvocationException, "crypt(3) returned NULL")
}

// pgCrypt is crypt(password, salt).
func pgCrypt(ctx *Context, pw, salt string) (string, error) {
	switch {
	case strings.HasPrefix(salt, "$2a$"), strings.HasPrefix(salt, "$2x$"):
		return bcryptHash(pw, salt)
	case strings.HasPrefix(salt, "$2$"):
		return "", errCryptNull()
	case strings.HasPrefix(salt, "$1$"):
		return md5Crypt(pw, salt), nil
	}
	return desCrypt(ctx, pw, salt)
}

// bcryptHash is crypt_blowfish's $2a$ (and, with the sign-extension bug
// it keeps for old hashes, $2x$): "$2a$NN$" with a cost of 04 to 31, then
// 22 characters of salt (16 bytes) and 31 of hash.
func bcryptHash(pw, setting string) (string, error) {
	if len(setting) < 7 || setting[4] < '0' || setting[4] > '3' || setting[5] < '0' || setting[5] > '9' ||
		setting[4] == '3' && setting[5] > '1' || setting[6] != '$' {
		return "", errInvalidSalt()
	}
	cost := int(setting[4]-'0')*10 + int(setting[5]-'0')
	if cost < 4 || len(setting) < 7+22 {
		return "", errInvalidSalt()
	}
	enc := setting[7 : 7+22]
	for i := 0; i < len(enc); i++ {
		if strings.IndexByte(bcryptAlphabet, enc[i]) < 0 {
			return "", errInvalidSalt()
		}
	}
	salt, err := bcryptB64.DecodeString(enc)
	if err != nil || len(salt) != 16 {
		return "", errInvalidSalt()
	}
	// The key, with its terminating NUL, repeated to fill Blowfish's 18
	// subkey words (crypt_blowfish's BF_set_key). $2x$ reads each byte as
	// a signed char, as the buggy original did.
	bug := setting[2] == 'x'
	key := make([]byte, 72)
	ckey := append([]byte(pw), 0)
	p := 0
	for i := 0; i < 18; i++ {
		var w uint32
		for j := 0; j < 4; j++ {
			c := ckey[p%len(ckey)]
			if bug && c >= 0x80 {
				w = w<<8 | 0xFFFFFF00 | uint32(c)
			} else {
				w = w<<8 | uint32(c)
			}
			p++
			if c == 0 {
				p = 0
			}
		}
		binary.BigEndian.PutUint32(key[4*i:], w)
	}
	c, err := blowfish.NewSaltedCipher(key, salt)
	if err != nil {
		return "", err
	}
	for i := uint64(0); i < 1<<uint(cost); i++ {
		blowfish.ExpandKey(key, c)
		blowfish.ExpandKey(salt, c)
	}
	text := []byte("OrpheanBeholderScryDoubt")
	for i := 0; i < 64; i++ {
		for b := 0; b < len(text); b += 8 {
			c.Encrypt(text[b:b+8], text[b:b+8])
		}
	}
	// The salt is printed from its 16 bytes, so the low bits of its last
	// character are normalised, as crypt_blowfish prints it.
	return setting[:7] + bcryptB64.EncodeToString(salt) + bcryptB64.EncodeToString(text[:23]), nil
}

// md5Crypt is Poul-Henning Kamp's MD5-crypt: "$1$", up to eight
// characters of salt (to the first '$'), '$', 22 characters of hash.
func md5Crypt(pw, setting string) string {
	const magic = "$1$"
	salt := strings.TrimPrefix(setting, magic)
	if i := strings.IndexByte(salt, '$'); i >= 0 {
		salt = salt[:i]
	}
	if len(salt) > 8 {
		salt = salt[:8]
	}
	alt := md5.Sum([]byte(pw + salt + pw))
	h := md5.New()
	h.Write([]byte(pw + magic + salt))
	for n := len(pw); n > 0; n -= 16 {
		h.Write(alt[:min(n, 16)])
	}
	for i := len(pw); i > 0; i >>= 1 {
		if i&1 != 0 {
			h.Write([]byte{0})
		} else {
			h.Write([]byte(pw[:1]))
		}
	}
	final := h.Sum(nil)
	for i := 0; i < 1000; i++ {
		h := md5.New()
		if i&1 != 0 {
			h.Write([]byte(pw))
		} else {
			h.Write(final)
		}
		if i%3 != 0 {
			h.Write([]byte(salt))
		}
		if i%7 != 0 {
			h.Write([]byte(pw))
		}
		if i&1 != 0 {
			h.Write(final)
		} else {
			h.Write([]byte(pw))
		}
		final = h.Sum(nil)
	}
	var b strings.Builder
	b.WriteString(magic + salt + "$")
	to64 := func(v uint32, n int) {
		for ; n > 0; n-- {
			b.WriteByte(cryptA64[v&0x3f])
			v >>= 6
		}
	}
	f := func(i int) uint32 { return uint32(final[i]) }
	to64(f(0)<<16|f(6)<<8|f(12), 4)
	to64(f(1)<<16|f(7)<<8|f(13), 4)
	to64(f(2)<<16|f(8)<<8|f(14), 4)
	to64(f(3)<<16|f(9)<<8|f(15), 4)
	to64(f(4)<<16|f(10)<<8|f(5), 4)
	to64(f(11), 2)
	return b.String()
}

// asciiToBin is a salt character's 6-bit value in cryptA64; any other
// byte is 0, as crypt(3)'s (signed char) reading of it gives.
func asciiToBin(c byte) uint32 {
	switch {
	case c >= 'a' && c <= 'z':
		return uint32(c-'a') + 38
	case c >= 'A' && c <= 'Z':
		return uint32(c-'A') + 12
	case c >= '.' && c <= '9':
		return uint32(c - '.')
	}
	return 0
}

// desCrypt is crypt(3)'s DES: traditional (two salt characters, the
// first eight characters of the password, 25 encryptions) or, for a salt
// "_" + four characters of count + four of salt, the extended (BSDi)
// form, which reads the whole password.
func desCrypt(ctx *Context, pw, setting string) (string, error) {
	var key [8]byte
	k := 0
	for i := range key {
		if k < len(pw) {
			key[i] = pw[k] << 1
			k++
		}
	}
	var salt, count uint32
	var out []byte
	if strings.HasPrefix(setting, "_") {
		if len(setting) < 9 {
			return "", errInvalidSalt()
		}
		for i := 1; i < 5; i++ {
			count |= asciiToBin(setting[i]) << ((i - 1) * 6)
		}
		for i := 5; i < 9; i++ {
			salt |= asciiToBin(setting[i]) << ((i - 5) * 6)
		}
		// Each further eight characters: the key encrypted with itself,
		// XORed with them.
		for k < len(pw) {
			ks := desKeySchedule(binary.BigEndian.Uint64(key[:]))
			binary.BigEndian.PutUint64(key[:], desEncrypt(&ks, binary.BigEndian.Uint64(key[:]), 0, 1))
			for i := 0; i < 8 && k < len(pw); i++ {
				key[i] ^= pw[k] << 1
				k++
			}
		}
		out = []byte(setting[:9])
	} else {
		if len(setting) < 2 {
			return "", errInvalidSalt()
		}
		count = 25
		salt = asciiToBin(setting[1])<<6 | asciiToBin(setting[0])
		out = []byte(setting[:2])
	}
	if count == 0 {
		return "", errCryptNull()
	}
	// Salt bit i swaps bits i and i+24 of the expansion's output, counted
	// from its first bit.
	var saltBits uint32
	for i := 0; i < 24; i++ {
		if salt&(1<<i) != 0 {
			saltBits |= 0x800000 >> i
		}
	}
	ks := desKeySchedule(binary.BigEndian.Uint64(key[:]))
	// The passes, in chunks so that a cancelled statement stops a large
	// count (the chunks' permutations cancel as the passes' do).
	var block uint64
	for left := int(count); left > 0; left -= 1 << 16 {
		if done := ctx.Done(); done != nil {
			select {
			case <-done:
				return "", ctx.Err()
			default:
			}
		}
		block = desEncrypt(&ks, block, saltBits, min(left, 1<<16))
	}
	r0, r1 := uint32(block>>32), uint32(block)
	enc := func(l uint32, n int) {
		for s := (n - 1) * 6; s >= 0; s -= 6 {
			out = append(out, cryptA64[(l>>uint(s))&0x3f])
		}
	}
	enc(r0>>8, 4)
	enc(r0<<16|r1>>16&0xffff, 4)
	enc(r1<<2, 3)
	return string(out), nil
}

// genSalt is gen_salt(type [, rounds]) (rounds 0: the default).
func genSalt(kind string, rounds int64) (string, error) {
	badRounds := pgerr.New(pgerr.InvalidParameterValue, "gen_salt: Incorrect number of rounds")
	rnd := func(n int) ([]byte, error) {
		b := make([]byte, n)
		_, err := rand.Read(b)
		return b, err
	}
	a64 := func(v uint32, n int) string {
		var b []byte
		for ; n > 0; n-- {
			b = append(b, cryptA64[v&0x3f])
			v >>= 6
		}
		return string(b)
	}
	switch strings.ToLower(kind) {
	case "des":
		if rounds != 0 && rounds != 25 {
			return "", badRounds
		}
		b, err := rnd(2)
		if err != nil {
			return "", err
		}
		return string([]byte{cryptA64[b[0]&0x3f], cryptA64[b[1]&0x3f]}), nil
	case "md5":
		if rounds != 0 && rounds != 1000 {
			return "", badRounds
		}
		b, err := rnd(6)
		if err != nil {
			return "", err
		}
		return "$1$" + a64(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16, 4) + a64(uint32(b[3])|uint32(b[4])<<8|uint32(b[5])<<16, 4), nil
	case "xdes":
		if rounds == 0 {
			rounds = 725
		}
		// An even count would make weak keys detectable; crypt(3) refuses it.
		if rounds < 1 || rounds > 0xffffff || rounds&1 == 0 {
			return "", badRounds
		}
		b, err := rnd(3)
		if err != nil {
			return "", err
		}
		return "_" + a64(uint32(rounds), 4) + a64(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16, 4), nil
	case "bf":
		if rounds == 0 {
			rounds = 6
		}
		if rounds < 4 || rounds > 31 {
			return "", badRounds
		}
		b, err := rnd(16)
		if err != nil {
			return "", err
		}
		return "$2a$" + string([]byte{byte('0' + rounds/10), byte('0' + rounds%10)}) + "$" + bcryptB64.EncodeToString(b), nil
	}
	return "", pgerr.New(pgerr.InvalidParameterValue, "gen_salt: Unknown salt algorithm")
}

func init() {
	textT := T(sqltypes.TypeText)
	Register("crypt", Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.TypeText), Volatility: Immutable,
		Doc: "the crypt(3) hash of a password with a salt (pgcrypto)",
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			s, err := pgCrypt(ctx, a[0].S, a[1].S)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewText(s), nil
		}})
	gen := func(params []Param) Overload {
		return Overload{Params: params, Result: Returns(sqltypes.TypeText), Volatility: Volatile,
			Doc: "a random salt for crypt of the given algorithm: bf, md5, xdes or des (pgcrypto)",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				var rounds int64
				if len(a) > 1 {
					rounds = a[1].I
				}
				s, err := genSalt(a[0].S, rounds)
				if err != nil {
					return sqltypes.Null, err
				}
				return sqltypes.NewText(s), nil
			}}
	}
	Register("gen_salt", gen([]Param{textT}), gen([]Param{textT, T(sqltypes.TypeInt4)}))
}
