package builtins

// DES as FIPS 46-3 defines it, with crypt(3)'s one change: a 24-bit salt
// that swaps bits of the expansion's output (desEncrypt's saltBits), which
// crypto/des cannot do. With saltBits 0 it is plain DES (TestDESPlain
// compares it with crypto/des). Tables number bits from 1, the most
// significant first, as the standard prints them.

var desIP = [64]byte{
	58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
	62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
	57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3,
	61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
}

var desFP = [64]byte{
	40, 8, 48, 16, 56, 24, 64, 32, 39, 7, 47, 15, 55, 23, 63, 31,
	38, 6, 46, 14, 54, 22, 62, 30, 37, 5, 45, 13, 53, 21, 61, 29,
	36, 4, 44, 12, 52, 20, 60, 28, 35, 3, 43, 11, 51, 19, 59, 27,
	34, 2, 42, 10, 50, 18, 58, 26, 33, 1, 41, 9, 49, 17, 57, 25,
}

var desE = [48]byte{
	32, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8, 9,
	8, 9, 10, 11, 12, 13, 12, 13, 14, 15, 16, 17,
	16, 17, 18, 19, 20, 21, 20, 21, 22, 23, 24, 25,
	24, 25, 26, 27, 28, 29, 28, 29, 30, 31, 32, 1,
}

var desP = [32]byte{
	16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10,
	2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25,
}

var desPC1 = [56]byte{
	57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
	10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
	63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
	14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
}

var desPC2 = [48]byte{
	14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10,
	23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
	41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48,
	44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
}

var desShifts = [16]byte{1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1}

var desS = [8][64]byte{
	{14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7,
		0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
		4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0,
		15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13},
	{15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10,
		3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
		0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15,
		13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9},
	{10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8,
		13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
		13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7,
		1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12},
	{7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15,
		13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
		10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4,
		3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14},
	{2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9,
		14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
		4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14,
		11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3},
	{12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11,
		10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
		9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6,
		4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13},
	{4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1,
		13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
		1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2,
		6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12},
	{13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7,
		1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
		7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8,
		2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11},
}

// desSP is each S-box's output already moved through P, by box and
// input, so a round is eight lookups.
var desSP = func() (sp [8][64]uint32) {
	for box := 0; box < 8; box++ {
		for in := 0; in < 64; in++ {
			row := (in>>4)&2 | in&1
			col := (in >> 1) & 0xf
			s := uint64(desS[box][row*16+col]) << uint(28-4*box)
			sp[box][in] = uint32(desPermute(s, 32, desP[:]))
		}
	}
	return sp
}()

// desPermute picks the bits table names from in, a value of width bits.
func desPermute(in uint64, width int, table []byte) uint64 {
	var out uint64
	for _, t := range table {
		out = out<<1 | (in>>uint(width-int(t)))&1
	}
	return out
}

// desKeys are the sixteen 48-bit round keys of one DES key.
type desKeys [16]uint64

// desKeySchedule derives the round keys from a 64-bit key (its parity
// bits ignored).
func desKeySchedule(key uint64) desKeys {
	var ks desKeys
	cd := desPermute(key, 64, desPC1[:])
	c, d := uint32(cd>>28)&0xfffffff, uint32(cd)&0xfffffff
	for r := 0; r < 16; r++ {
		for s := byte(0); s < desShifts[r]; s++ {
			c = (c<<1 | c>>27) & 0xfffffff
			d = (d<<1 | d>>27) & 0xfffffff
		}
		ks[r] = desPermute(uint64(c)<<28|uint64(d), 56, desPC2[:])
	}
	return ks
}

// desEncrypt enciphers one 64-bit block count times over (the
// permutations between the passes cancel, so they are done once).
// saltBits, 24 bits, swaps bits i and i+24 of the expansion's output
// wherever its bit 23-i is set.
func desEncrypt(ks *desKeys, block uint64, saltBits uint32, count int) uint64 {
	ip := desPermute(block, 64, desIP[:])
	l, r := uint32(ip>>32), uint32(ip)
	for ; count > 0; count-- {
		for round := 0; round < 16; round++ {
			// The expansion: box j reads six bits of R from bit 4j on,
			// counted from R's last bit rotated to the front.
			rr := r>>1 | r<<31
			w := uint64(rr)<<32 | uint64(rr)
			var e uint64
			for box := 0; box < 8; box++ {
				e = e<<6 | (w>>uint(58-4*box))&0x3f
			}
			el, er := uint32(e>>24), uint32(e)&0xffffff
			f := (el ^ er) & saltBits
			x := (uint64(el^f)<<24 | uint64(er^f)) ^ ks[round]
			var out uint32
			for box := 0; box < 8; box++ {
				out |= desSP[box][(x>>uint(42-6*box))&0x3f]
			}
			l, r = r, l^out
		}
		l, r = r, l
	}
	return desPermute(uint64(l)<<32|uint64(r), 64, desFP[:])
}
