package builtins

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"hash"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The functions of the extensions uuid-ossp and pgcrypto that applications
// call (ORMs create uuid-ossp for uuid_generate_v4 defaults, and hash with
// pgcrypto's digest and hmac). zproxy has them built in, as it has
// pg_stat_statements: the extensions are always installed
// (catalog/pgcatalog/extensions.go). The UUIDs follow RFC 4122, as
// uuid-ossp's do; pgcrypto's crypt and gen_salt are in ext_pgcrypto_crypt.go.

// uuidNamespaces are RFC 4122's name spaces (uuid_ns_dns() ...).
var uuidNamespaces = map[string]string{
	"uuid_ns_dns":  "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
	"uuid_ns_url":  "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
	"uuid_ns_oid":  "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
	"uuid_ns_x500": "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
}

// uuidEpoch is the start of RFC 4122's time stamps (1582-10-15) in Unix
// time, in 100-nanosecond units.
const uuidEpoch = 0x01B21DD213814000

func init() {
	uuidT := T(sqltypes.TypeUUID)
	for name, text := range uuidNamespaces {
		v, err := sqltypes.ParseText(sqltypes.TypeUUID, text)
		if err != nil {
			panic(err)
		}
		Register(name, Overload{Result: Returns(sqltypes.TypeUUID), Volatility: Immutable,
			Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return v, nil }})
	}
	Register("uuid_nil", Overload{Result: Returns(sqltypes.TypeUUID), Volatility: Immutable,
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NewUUID([16]byte{}), nil }})
	Register("uuid_generate_v4", Overload{Result: Returns(sqltypes.TypeUUID), Volatility: Volatile,
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return randomUUID() }})
	// Version 1 from the time and a random node with the multicast bit
	// set (uuid_generate_v1mc's; zproxy does not reveal a MAC address, so
	// uuid_generate_v1 does the same).
	v1 := Overload{Result: Returns(sqltypes.TypeUUID), Volatility: Volatile,
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return timeUUID(time.Now()) }}
	Register("uuid_generate_v1", v1)
	Register("uuid_generate_v1mc", v1)
	named := func(version byte, h func() hash.Hash) Overload {
		return Overload{Params: []Param{uuidT, T(sqltypes.TypeText)}, Result: Returns(sqltypes.TypeUUID), Volatility: Immutable,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				d := h()
				d.Write([]byte(a[0].S))
				d.Write([]byte(a[1].S))
				var u [16]byte
				copy(u[:], d.Sum(nil))
				u[6] = u[6]&0x0f | version<<4
				u[8] = u[8]&0x3f | 0x80
				return sqltypes.NewUUID(u), nil
			}}
	}
	Register("uuid_generate_v3", named(3, md5.New))
	Register("uuid_generate_v5", named(5, sha1.New))

	byteaT, textT := T(sqltypes.TypeBytea), T(sqltypes.TypeText)
	digest := func(a []sqltypes.Value) ([]byte, error) {
		h, err := pgcryptoHash(a[1].S)
		if err != nil {
			return nil, err
		}
		d := h()
		d.Write([]byte(a[0].S))
		return d.Sum(nil), nil
	}
	Register("digest", bytesFn([]Param{textT, textT}, digest), bytesFn([]Param{byteaT, textT}, digest))
	mac := func(a []sqltypes.Value) ([]byte, error) {
		h, err := pgcryptoHash(a[2].S)
		if err != nil {
			return nil, err
		}
		m := hmac.New(h, []byte(a[1].S))
		m.Write([]byte(a[0].S))
		return m.Sum(nil), nil
	}
	Register("hmac", bytesFn([]Param{textT, textT, textT}, mac), bytesFn([]Param{byteaT, byteaT, textT}, mac))
	Register("gen_random_bytes", Overload{Params: []Param{T(sqltypes.TypeInt4)}, Result: Returns(sqltypes.TypeBytea), Volatility: Volatile,
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[0].I < 1 || a[0].I > 1024 {
				return sqltypes.Null, pgerr.New(pgerr.ExternalRoutineInvocationException, "Length not in range")
			}
			b := make([]byte, a[0].I)
			if _, err := rand.Read(b); err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewBytes(b), nil
		}})
}

// pgcryptoHash is the hash pgcrypto's digest and hmac name (any case).
func pgcryptoHash(name string) (func() hash.Hash, error) {
	switch strings.ToLower(name) {
	case "md5":
		return md5.New, nil
	case "sha1":
		return sha1.New, nil
	case "sha224":
		return sha256.New224, nil
	case "sha256":
		return sha256.New, nil
	case "sha384":
		return sha512.New384, nil
	case "sha512":
		return sha512.New, nil
	}
	return nil, pgerr.New(pgerr.InvalidParameterValue, "Cannot use \"%s\": No such hash algorithm", name)
}

// randomUUID is a version 4 UUID.
func randomUUID() (sqltypes.Value, error) {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return sqltypes.Null, err
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return sqltypes.NewUUID(u), nil
}

// timeUUID is a version 1 UUID of t, with a random clock sequence and a
// random multicast node.
func timeUUID(t time.Time) (sqltypes.Value, error) {
	var u [16]byte
	if _, err := rand.Read(u[8:]); err != nil {
		return sqltypes.Null, err
	}
	ts := uint64(t.UnixNano()/100) + uuidEpoch
	binary.BigEndian.PutUint32(u[0:4], uint32(ts))
	binary.BigEndian.PutUint16(u[4:6], uint16(ts>>32))
	binary.BigEndian.PutUint16(u[6:8], uint16(ts>>48)&0x0fff|0x1000)
	u[8] = u[8]&0x3f | 0x80
	u[10] |= 0x01 // multicast: not a real MAC address
	return sqltypes.NewUUID(u), nil
}
