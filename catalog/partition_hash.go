package catalog

import (
	"encoding/binary"
	"math/bits"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// A hash partition takes the rows whose key hashes to its remainder
// modulo its modulus. The hash is PostgreSQL's (partbounds.c's
// compute_partition_hash_value over the types' extended hash functions,
// which are Bob Jenkins' lookup3 in hashfn.c), so a row lands in the
// partition PostgreSQL would put it in.

// hashPartitionSeed is partbounds.c's HASH_PARTITION_SEED.
const hashPartitionSeed uint64 = 0x7A5B22367996DCFD

// HashPartitionable reports whether zproxy computes PostgreSQL's
// partition hash for values of type t.
func HashPartitionable(t sqltypes.Type) bool {
	switch t.ID {
	case sqltypes.Int2, sqltypes.Int4, sqltypes.Int8, sqltypes.Text, sqltypes.Varchar, sqltypes.BPChar,
		sqltypes.Bool, sqltypes.Date, sqltypes.Timestamp, sqltypes.TimestampTZ, sqltypes.UUID:
		return true
	}
	return false
}

// PartitionHash is the partition hash of a row's key values of types
// types (NULLs are skipped, as PostgreSQL skips them).
func PartitionHash(types []sqltypes.Type, key []sqltypes.Value) (uint64, error) {
	var row uint64
	for i, v := range key {
		if v.IsNull() {
			continue
		}
		h, err := hashExtended(types[i], v, hashPartitionSeed)
		if err != nil {
			return 0, err
		}
		row ^= h + 0x49a0f4dd15e5a8e3 + (row << 54) + (row >> 7) // hash_combine64
	}
	return row, nil
}

// pgEpochDays is PostgreSQL's date epoch (2000-01-01) from the Unix epoch
// zproxy's dates count from (its timestamps count from 2000 already).
const pgEpochDays = sqltypes.PGEpochDays

// hashExtended is the type's extended hash support function (hashint4extended,
// hashtextextended, ...).
func hashExtended(t sqltypes.Type, v sqltypes.Value, seed uint64) (uint64, error) {
	switch t.ID {
	case sqltypes.Int2, sqltypes.Int4:
		return HashUint32Extended(uint32(int32(v.I)), seed), nil
	case sqltypes.Date:
		return HashUint32Extended(uint32(int32(v.I-pgEpochDays)), seed), nil
	case sqltypes.Bool:
		return HashUint32Extended(uint32(v.I), seed), nil
	case sqltypes.Int8:
		return hashInt8Extended(v.I, seed), nil
	case sqltypes.Timestamp, sqltypes.TimestampTZ:
		return hashInt8Extended(v.I, seed), nil
	case sqltypes.Text, sqltypes.Varchar:
		return hashBytesExtended([]byte(v.S), seed), nil
	case sqltypes.BPChar:
		return hashBytesExtended([]byte(strings.TrimRight(v.S, " ")), seed), nil
	case sqltypes.UUID:
		return hashBytesExtended([]byte(v.S), seed), nil
	}
	return 0, pgerr.New(pgerr.FeatureNotSupported, "hash partitioning by type %s is not supported", t)
}

func hashInt8Extended(val int64, seed uint64) uint64 {
	lo, hi := uint32(val), uint32(val>>32)
	if val >= 0 {
		lo ^= hi
	} else {
		lo ^= ^hi
	}
	return HashUint32Extended(lo, seed)
}

func mix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= c
	a ^= bits.RotateLeft32(c, 4)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 6)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 8)
	b += a
	a -= c
	a ^= bits.RotateLeft32(c, 16)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 19)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 4)
	b += a
	return a, b, c
}

func final(a, b, c uint32) (uint32, uint32, uint32) {
	c ^= b
	c -= bits.RotateLeft32(b, 14)
	a ^= c
	a -= bits.RotateLeft32(c, 11)
	b ^= a
	b -= bits.RotateLeft32(a, 25)
	c ^= b
	c -= bits.RotateLeft32(b, 16)
	a ^= c
	a -= bits.RotateLeft32(c, 4)
	b ^= a
	b -= bits.RotateLeft32(a, 14)
	c ^= b
	c -= bits.RotateLeft32(b, 24)
	return a, b, c
}

func seeded(n uint32, seed uint64) (uint32, uint32, uint32) {
	a := 0x9e3779b9 + n + 3923095
	b, c := a, a
	if seed != 0 {
		a += uint32(seed >> 32)
		b += uint32(seed)
		a, b, c = mix(a, b, c)
	}
	return a, b, c
}

// HashUint32Extended is hashfn.c's hash_uint32_extended.
func HashUint32Extended(k uint32, seed uint64) uint64 {
	a, b, c := seeded(4, seed)
	a += k
	_, b, c = final(a, b, c)
	return uint64(b)<<32 | uint64(c)
}

// hashBytesExtended is hashfn.c's hash_bytes_extended (little-endian).
func hashBytesExtended(k []byte, seed uint64) uint64 {
	a, b, c := seeded(uint32(len(k)), seed)
	for len(k) >= 12 {
		a += binary.LittleEndian.Uint32(k)
		b += binary.LittleEndian.Uint32(k[4:])
		c += binary.LittleEndian.Uint32(k[8:])
		a, b, c = mix(a, b, c)
		k = k[12:]
	}
	// The last 11 bytes; c's lowest byte is left for the length.
	for i := len(k) - 1; i >= 0; i-- {
		switch {
		case i >= 8:
			c += uint32(k[i]) << (8 * (i - 7))
		case i >= 4:
			b += uint32(k[i]) << (8 * (i - 4))
		default:
			a += uint32(k[i]) << (8 * i)
		}
	}
	_, b, c = final(a, b, c)
	return uint64(b)<<32 | uint64(c)
}
