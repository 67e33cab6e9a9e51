package sqltypes

import (
	"encoding/hex"
	"net/netip"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// PostgreSQL's network types: inet and cidr (KindInet) and macaddr and
// macaddr8 (KindMacAddr).
//
// An inet or cidr value keeps in S its order-preserving form: the family
// byte (2 for IPv4, 3 for IPv6, PostgreSQL's PGSQL_AF_INET and
// PGSQL_AF_INET6), the address with the bits right of the mask cleared,
// the mask length, then the whole address (4 or 16 bytes each). Comparing
// these strings bytewise is PostgreSQL's network_cmp (family, network
// part, mask length, whole address): the cleared network part orders a
// shorter prefix before the longer ones it contains, and ties fall to the
// mask length and then the address. So Compare, Hash and the key encoding
// all use S as it is. I is 1 for a cidr value and 0 for an inet: the type
// decides only how the value prints and sends (a cidr's /n always shows),
// never how it compares, as in PostgreSQL where cidr is binary-coercible
// to inet.
//
// A macaddr or macaddr8 keeps its 6 or 8 bytes in S; bytewise order is
// macaddr_cmp's.

// The address families of inet values, as PostgreSQL numbers them.
const (
	InetFamily4 = 2
	InetFamily6 = 3
)

// InetAddr is an inet or cidr value taken apart.
type InetAddr struct {
	Family byte     // InetFamily4 or InetFamily6
	Bits   int      // the mask length
	Addr   [16]byte // the address; IPv4 uses the first 4 bytes
	Cidr   bool     // a cidr (prints its /n always)
}

// Size returns the length of the address in bytes: 4 or 16.
func (n InetAddr) Size() int {
	if n.Family == InetFamily6 {
		return 16
	}
	return 4
}

// MaxBits returns the width of the address in bits: 32 or 128.
func (n InetAddr) MaxBits() int { return n.Size() * 8 }

// Masked returns the address with the bits right of the first bits
// cleared.
func (n InetAddr) Masked(bits int) [16]byte {
	var out [16]byte
	for i := 0; i < n.Size(); i++ {
		switch {
		case bits >= 8*(i+1):
			out[i] = n.Addr[i]
		case bits > 8*i:
			out[i] = n.Addr[i] & byte(0xff<<(8-(bits-8*i)))
		}
	}
	return out
}

// HostClean reports whether no bit right of the mask is set (a valid
// cidr).
func (n InetAddr) HostClean() bool { return n.Masked(n.Bits) == n.Addr }

// NewInet returns the value of n.
func NewInet(n InetAddr) Value {
	size := n.Size()
	b := make([]byte, 0, 2+2*size)
	b = append(b, n.Family)
	m := n.Masked(n.Bits)
	b = append(b, m[:size]...)
	b = append(b, byte(n.Bits))
	b = append(b, n.Addr[:size]...)
	v := Value{K: KindInet, S: string(b)}
	if n.Cidr {
		v.I = 1
	}
	return v
}

// Inet returns the parts of a KindInet value.
func (v Value) Inet() InetAddr {
	n := InetAddr{Family: v.S[0], Cidr: v.I != 0}
	size := n.Size()
	n.Bits = int(v.S[1+size])
	copy(n.Addr[:], v.S[2+size:])
	return n
}

// InetValueAs returns v as a value of type cidr (cidr true) or inet: the
// same address, printing as that type does. It does not clear host bits:
// the cast of an inet to cidr is InetToCidr.
func InetValueAs(v Value, cidr bool) Value {
	if cidr {
		v.I = 1
	} else {
		v.I = 0
	}
	return v
}

func invalidInet(cidr bool, s string) error {
	name := "inet"
	if cidr {
		name = "cidr"
	}
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", name, s)
}

// ParseInet reads the text of an inet (cidr false) or cidr value as
// PostgreSQL's inet_in and cidr_in do: an address with a colon is IPv6;
// an inet's IPv4 address needs all four octets unless a /n says how many
// it means, while a cidr's may be shortened (10, 10.1/16, hexadecimal
// 0x0a), taking its mask from the address class when no /n is given; a
// cidr with bits set right of its mask is refused.
func ParseInet(s string, cidr bool) (Value, error) {
	n := InetAddr{Family: InetFamily4, Cidr: cidr}
	if strings.IndexByte(s, ':') >= 0 {
		n.Family = InetFamily6
	}
	var bits int
	var ok bool
	switch {
	case n.Family == InetFamily6:
		bits, ok = parseIPv6(s, &n.Addr)
	case cidr:
		bits, ok = parseCidrIPv4(s, &n.Addr)
	default:
		bits, ok = parseInetIPv4(s, &n.Addr)
	}
	if !ok || bits < 0 || bits > n.MaxBits() {
		return Null, invalidInet(cidr, s)
	}
	n.Bits = bits
	if cidr && !n.HostClean() {
		return Null, pgerr.New(pgerr.InvalidTextRepresentation, "invalid cidr value: \"%s\"", s).
			WithDetail("Value has bits set to right of mask.")
	}
	return NewInet(n), nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// at returns s[i], or 0 past its end (C's terminating NUL, which the
// parsers below follow PostgreSQL's in testing for).
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// parseMaskSuffix reads the decimal /n after an IPv4 address (i at the
// digit after the slash): nothing may follow it, and it may not exceed 32.
func parseMaskSuffix(s string, i int) (int, bool) {
	bits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		bits = bits*10 + int(s[i]-'0')
		if bits > 1000 {
			return 0, false
		}
	}
	if i != len(s) || bits > 32 {
		return 0, false
	}
	return bits, true
}

// parseInetIPv4 is inet's IPv4 reading (inet_net_pton_ipv4): dotted
// decimal octets, an optional /n; without /n all four octets are needed;
// octets the mask does not reach may be left out.
func parseInetIPv4(s string, dst *[16]byte) (int, bool) {
	i, n := 0, 0
	var ch byte
	for {
		ch = at(s, i)
		i++
		if !isDigit(ch) {
			break
		}
		var more, ok bool
		if ch, i, more, ok = readOctet(s, i, ch, dst, &n); !ok {
			return 0, false
		}
		if !more {
			break
		}
	}
	bits, ch, ok := readMask(s, i, ch, n)
	if !ok || ch != 0 {
		return 0, false
	}
	if bits == -1 {
		if n != 4 {
			return 0, false
		}
		bits = 32
	}
	if n == 0 || bits/8 > n {
		return 0, false
	}
	return bits, true
}

// readOctet reads the decimal octet whose first digit is ch (the next
// byte at i) into dst[*n]: no more than 255, no more than four octets. It
// returns the byte after the digits and the index after that byte; more
// says a dot followed (another octet may come), and the end or a / ends
// the octets; anything else is not an address.
func readOctet(s string, i int, ch byte, dst *[16]byte, n *int) (next byte, after int, more, ok bool) {
	tmp := 0
	for {
		tmp = tmp*10 + int(ch-'0')
		if tmp > 255 {
			return 0, i, false, false
		}
		ch = at(s, i)
		i++
		if ch == 0 || !isDigit(ch) {
			break
		}
	}
	if *n == 4 {
		return 0, i, false, false
	}
	dst[*n] = byte(tmp)
	*n++
	if ch == 0 || ch == '/' {
		return ch, i, false, true
	}
	return ch, i, true, ch == '.'
}

// readMask reads the /n after n octets, ch being the byte after them and
// i the index after ch: bits -1 and ch unchanged when there is none, ch 0
// once a valid one is read.
func readMask(s string, i int, ch byte, n int) (bits int, rest byte, ok bool) {
	if ch != '/' || !isDigit(at(s, i)) || n == 0 {
		return -1, ch, true
	}
	bits, ok = parseMaskSuffix(s, i)
	return bits, 0, ok
}

// parseCidrIPv4 is cidr's IPv4 reading (inet_cidr_pton_ipv4): dotted
// decimal or 0x-prefixed hexadecimal, up to four octets, and without a
// /n the mask of the address's class, widened to the octets given.
func parseCidrIPv4(s string, dst *[16]byte) (int, bool) {
	i, n := 0, 0
	ch := at(s, i)
	i++
	if ch == '0' && (at(s, i) == 'x' || at(s, i) == 'X') {
		if _, ok := hexDigit(at(s, i+1)); ok {
			i++
			dirty, tmp := 0, byte(0)
			for {
				ch = at(s, i)
				i++
				d, ok := hexDigit(ch)
				if ch == 0 || !ok {
					break
				}
				tmp = tmp<<4 | d
				if dirty++; dirty == 2 {
					if n == 4 {
						return 0, false
					}
					dst[n], n, dirty, tmp = tmp, n+1, 0, 0
				}
			}
			if dirty > 0 {
				if n == 4 {
					return 0, false
				}
				dst[n], n = tmp<<4, n+1
			}
			goto mask
		}
	}
	if !isDigit(ch) {
		return 0, false
	}
	for {
		var more, ok bool
		if ch, i, more, ok = readOctet(s, i, ch, dst, &n); !ok {
			return 0, false
		}
		if !more {
			break
		}
		ch = at(s, i)
		i++
		if !isDigit(ch) {
			return 0, false
		}
	}
mask:
	bits, ch, ok := readMask(s, i, ch, n)
	if !ok || ch != 0 || n == 0 {
		return 0, false
	}
	if bits == -1 {
		switch first := dst[0]; {
		case first >= 240: // class E
			bits = 32
		case first >= 224: // class D
			bits = 8
		case first >= 192: // class C
			bits = 24
		case first >= 128: // class B
			bits = 16
		default: // class A
			bits = 8
		}
		if bits < n*8 {
			bits = n * 8
		}
		if bits == 8 && dst[0] == 224 {
			bits = 4
		}
	}
	// The octets not given are zero (dst starts zeroed).
	return bits, true
}

// parseIPv6 reads an IPv6 address with an optional /n (inet_cidr_pton_ipv6,
// which inet and cidr share): groups of up to four hex digits, one ::, and
// optionally an IPv4 address in the last 32 bits.
func parseIPv6(s string, dst *[16]byte) (int, bool) {
	var tmp [16]byte
	tp, colonp := 0, -1
	i := 0
	if at(s, 0) == ':' {
		if at(s, 1) != ':' {
			return 0, false
		}
		i = 1
	}
	curtok := i
	sawXDigit, val, digits, bits := false, 0, 0, -1
	for i < len(s) {
		ch := s[i]
		i++
		if d, ok := hexDigit(ch); ok {
			val = val<<4 | int(d)
			if digits++; digits > 4 {
				return 0, false
			}
			sawXDigit = true
			continue
		}
		if ch == ':' {
			curtok = i
			if !sawXDigit {
				if colonp >= 0 {
					return 0, false
				}
				colonp = tp
				continue
			} else if i == len(s) {
				return 0, false
			}
			if tp+2 > 16 {
				return 0, false
			}
			tmp[tp], tmp[tp+1] = byte(val>>8), byte(val)
			tp += 2
			sawXDigit, digits, val = false, 0, 0
			continue
		}
		if ch == '.' && tp+4 <= 16 {
			if b, ok := parseV4Tail(s[curtok:], tmp[tp:tp+4]); ok {
				if b >= 0 {
					bits = b
				}
				tp += 4
				sawXDigit = false
				break
			}
		}
		if ch == '/' {
			if b, ok := parseV6Bits(s[i:]); ok {
				bits = b
				break
			}
		}
		return 0, false
	}
	if sawXDigit {
		if tp+2 > 16 {
			return 0, false
		}
		tmp[tp], tmp[tp+1] = byte(val>>8), byte(val)
		tp += 2
	}
	if bits == -1 {
		bits = 128
	}
	if colonp >= 0 {
		if tp == 16 {
			return 0, false
		}
		n := tp - colonp
		for k := 1; k <= n; k++ {
			tmp[16-k] = tmp[colonp+n-k]
			tmp[colonp+n-k] = 0
		}
		tp = 16
	}
	if tp != 16 {
		return 0, false
	}
	*dst = tmp
	return bits, true
}

// parseV6Bits reads the /n of an IPv6 address (getbits): decimal, no
// leading zeros, at most 128, nothing after it.
func parseV6Bits(s string) (int, bool) {
	val := 0
	for k := 0; k < len(s); k++ {
		if !isDigit(s[k]) {
			return 0, false
		}
		if k != 0 && val == 0 {
			return 0, false
		}
		val = val*10 + int(s[k]-'0')
		if val > 128 {
			return 0, false
		}
	}
	if len(s) == 0 {
		return 0, false
	}
	return val, true
}

// parseV4Tail reads the dotted IPv4 ending of an IPv6 address into dst
// (getv4), with its /n if any (bits -1 when none).
func parseV4Tail(s string, dst []byte) (int, bool) {
	val, n, o := 0, 0, 0
	for k := 0; k < len(s); k++ {
		ch := s[k]
		if isDigit(ch) {
			if n != 0 && val == 0 {
				return 0, false
			}
			n++
			val = val*10 + int(ch-'0')
			if val > 255 {
				return 0, false
			}
			continue
		}
		if ch == '.' || ch == '/' {
			if o > 3 {
				return 0, false
			}
			dst[o] = byte(val)
			o++
			if ch == '/' {
				return parseV6Bits(s[k+1:])
			}
			val, n = 0, 0
			continue
		}
		return 0, false
	}
	if n == 0 || o > 3 {
		return 0, false
	}
	dst[o] = byte(val)
	return -1, true
}

// AppendInet appends the text output of an inet or cidr value (inet_out,
// cidr_out): an inet shows its /n unless it covers the whole address, a
// cidr always.
func AppendInet(buf []byte, n InetAddr) []byte {
	buf = appendInetAddr(buf, n)
	if n.Cidr || n.Bits != n.MaxBits() {
		buf = append(buf, '/')
		buf = strconv.AppendInt(buf, int64(n.Bits), 10)
	}
	return buf
}

// InetText is text(inet), the cast of inet and cidr to the string
// types: the address with its /n always.
func InetText(n InetAddr) string {
	n.Cidr = true
	return string(AppendInet(nil, n))
}

// InetHost is host(inet): the address alone.
func InetHost(n InetAddr) string { return string(appendInetAddr(nil, n)) }

// appendInetAddr appends the address of n (inet_net_ntop without the
// mask): IPv4 as four decimal octets, IPv6 in its shortest form (the
// longest run of two or more zero groups as ::) with a trailing IPv4 form
// for IPv4-compatible and IPv4-mapped addresses.
func appendInetAddr(buf []byte, n InetAddr) []byte {
	if n.Family == InetFamily4 {
		for i := 0; i < 4; i++ {
			if i > 0 {
				buf = append(buf, '.')
			}
			buf = strconv.AppendInt(buf, int64(n.Addr[i]), 10)
		}
		return buf
	}
	var words [8]int
	for i := range words {
		words[i] = int(n.Addr[2*i])<<8 | int(n.Addr[2*i+1])
	}
	bestBase, bestLen, curBase, curLen := -1, 0, -1, 0
	for i, w := range words {
		if w == 0 {
			if curBase == -1 {
				curBase, curLen = i, 1
			} else {
				curLen++
			}
			continue
		}
		if curBase != -1 {
			if bestBase == -1 || curLen > bestLen {
				bestBase, bestLen = curBase, curLen
			}
			curBase = -1
		}
	}
	if curBase != -1 && (bestBase == -1 || curLen > bestLen) {
		bestBase, bestLen = curBase, curLen
	}
	if bestBase != -1 && bestLen < 2 {
		bestBase = -1
	}
	for i := 0; i < 8; i++ {
		if bestBase != -1 && i >= bestBase && i < bestBase+bestLen {
			if i == bestBase {
				buf = append(buf, ':')
			}
			continue
		}
		if i != 0 {
			buf = append(buf, ':')
		}
		if i == 6 && bestBase == 0 && (bestLen == 6 || bestLen == 7 && words[7] != 1 || bestLen == 5 && words[5] == 0xffff) {
			for k := 12; k < 16; k++ {
				if k > 12 {
					buf = append(buf, '.')
				}
				buf = strconv.AppendInt(buf, int64(n.Addr[k]), 10)
			}
			return buf
		}
		buf = strconv.AppendInt(buf, int64(words[i]), 16)
	}
	if bestBase != -1 && bestBase+bestLen == 8 {
		buf = append(buf, ':')
	}
	return buf
}

// InetAbbrev is abbrev(): an inet prints as inet_out does; a cidr only
// the octets (IPv4) or groups (IPv6) its mask reaches (inet_cidr_ntop).
func InetAbbrev(n InetAddr) string {
	if !n.Cidr {
		return string(AppendInet(nil, n))
	}
	var buf []byte
	if n.Family == InetFamily4 {
		if n.Bits == 0 {
			buf = append(buf, '0')
		}
		k := 0
		for b := n.Bits / 8; b > 0; b-- {
			buf = strconv.AppendInt(buf, int64(n.Addr[k]), 10)
			k++
			if b > 1 {
				buf = append(buf, '.')
			}
		}
		if b := n.Bits % 8; b > 0 {
			if len(buf) > 0 {
				buf = append(buf, '.')
			}
			buf = strconv.AppendInt(buf, int64(n.Addr[k]&byte(0xff<<(8-b))), 10)
		}
	} else {
		buf = appendCidrIPv6(buf, n)
	}
	buf = append(buf, '/')
	return string(strconv.AppendInt(buf, int64(n.Bits), 10))
}

// appendCidrIPv6 is inet_cidr_ntop_ipv6's address: the groups the mask
// reaches (at least two), the longest zero run as ::.
func appendCidrIPv6(buf []byte, n InetAddr) []byte {
	if n.Bits == 0 {
		return append(buf, ':', ':')
	}
	s := n.Masked(n.Bits)
	words := (n.Bits + 15) / 16
	if words == 1 {
		words = 2
	}
	zeroS, zeroL, tmpS, tmpL := 0, 0, 0, 0
	for i := 0; i < words*2; i += 2 {
		if s[i]|s[i+1] == 0 {
			if tmpL == 0 {
				tmpS = i / 2
			}
			tmpL++
		} else if tmpL != 0 && zeroL < tmpL {
			// PostgreSQL forgets a shorter run only when a longer one
			// replaces it; the quirk shows in its output, kept here.
			zeroS, zeroL, tmpL = tmpS, tmpL, 0
		}
	}
	if tmpL != 0 && zeroL < tmpL {
		zeroS, zeroL = tmpS, tmpL
	}
	isV4 := zeroL != words && zeroS == 0 && (zeroL == 6 || zeroL == 5 && s[10] == 0xff && s[11] == 0xff || zeroL == 7 && s[14] != 0 && s[15] != 1)
	start := len(buf)
	k := 0
	for p := 0; p < words; p++ {
		if zeroL != 0 && p >= zeroS && p < zeroS+zeroL {
			if p == zeroS {
				buf = append(buf, ':')
			}
			if p == words-1 {
				buf = append(buf, ':')
			}
			k += 2
			continue
		}
		if isV4 && p > 5 {
			if p == 6 {
				buf = append(buf, ':')
			} else {
				buf = append(buf, '.')
			}
			buf = strconv.AppendInt(buf, int64(s[k]), 10)
			k++
			if p != 7 || n.Bits > 120 {
				buf = append(buf, '.')
				buf = strconv.AppendInt(buf, int64(s[k]), 10)
				k++
			}
			continue
		}
		if len(buf) != start {
			buf = append(buf, ':')
		}
		buf = strconv.AppendInt(buf, int64(s[k])*256+int64(s[k+1]), 16)
		k += 2
	}
	return buf
}

// InetToCidr is the cast of inet to cidr (inet_to_cidr): the host bits
// cleared.
func InetToCidr(v Value) Value {
	n := v.Inet()
	n.Addr = n.Masked(n.Bits)
	n.Cidr = true
	return NewInet(n)
}

// InetSubnetBounds returns the least and greatest inet values (in
// network_cmp's order) of the addresses a network contains (x <<= net):
// the network address with its mask length, and the broadcast address
// with the full one. Every x <<= net lies between them and everything
// else between them is contained too, as PostgreSQL's
// network_subset_support reasons for a btree scan.
func InetSubnetBounds(v Value) (lo, hi Value) {
	n := v.Inet()
	low := InetAddr{Family: n.Family, Bits: n.Bits, Addr: n.Masked(n.Bits)}
	high := InetAddr{Family: n.Family, Bits: n.MaxBits(), Addr: low.Addr}
	for i := 0; i < n.Size(); i++ {
		// The bits right of the mask, set.
		if rest := n.Bits - 8*i; rest < 8 {
			high.Addr[i] |= byte(0xff >> max(rest, 0))
		}
	}
	return NewInet(low), NewInet(high)
}

// InetFromAddr returns the inet of a host address (an IPv4-mapped IPv6
// address as IPv4), as PostgreSQL reports a connection's ends.
func InetFromAddr(a netip.Addr) Value {
	a = a.Unmap()
	n := InetAddr{Family: InetFamily4, Bits: a.BitLen()}
	if a.Is6() {
		n.Family = InetFamily6
	}
	copy(n.Addr[:], a.AsSlice())
	return NewInet(n)
}

// NewMacAddr returns a macaddr (6 bytes) or macaddr8 (8 bytes) value.
func NewMacAddr(b []byte) Value { return Value{K: KindMacAddr, S: string(b)} }

// AppendMacAddr appends a macaddr or macaddr8 as its text output:
// lower-case hex pairs separated by colons.
func AppendMacAddr(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if i > 0 {
			buf = append(buf, ':')
		}
		buf = hex.AppendEncode(buf, []byte{s[i]})
	}
	return buf
}

// macaddrFormats are the layouts macaddr_in tries, in its order: "x" is
// a hexadecimal field of any width, "2" one of at most two digits, any
// other byte itself.
var macaddrFormats = []string{"x:x:x:x:x:x", "x-x-x-x-x-x", "222:222", "222-222", "22.22.22", "22-22-22", "222222"}

// ParseMacAddr reads a macaddr as macaddr_in does, in any of the layouts
// of macaddrFormats, each field read as sscanf's %x reads it (blanks
// before it skipped, a sign and a 0x allowed), trailing blanks allowed.
func ParseMacAddr(s string) (Value, error) {
	for _, f := range macaddrFormats {
		b, ok, outOfRange := scanMac(s, f)
		if !ok {
			continue
		}
		if outOfRange {
			return Null, pgerr.New(pgerr.NumericValueOutOfRange, "invalid octet value in \"macaddr\" value: \"%s\"", s)
		}
		return NewMacAddr(b), nil
	}
	return Null, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type macaddr: \"%s\"", s)
}

func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// scanMac matches s against one macaddr layout; outOfRange reports a
// field outside 0..255 (which PostgreSQL reports after a match).
func scanMac(s, format string) (b []byte, ok, outOfRange bool) {
	i := 0
	for f := 0; f < len(format); f++ {
		c := format[f]
		if c != 'x' && c != '2' {
			if i >= len(s) || s[i] != c {
				return nil, false, false
			}
			i++
			continue
		}
		width := len(s)
		if c == '2' {
			width = 2
		}
		for i < len(s) && isCSpace(s[i]) {
			i++
		}
		end := min(len(s), i+width)
		j := i
		neg := false
		if j < end && (s[j] == '+' || s[j] == '-') {
			neg = s[j] == '-'
			j++
		}
		if j+1 < end && s[j] == '0' && (s[j+1] == 'x' || s[j+1] == 'X') {
			if _, hx := hexDigit(at(s, j+2)); hx && j+2 < end {
				j += 2
			}
		}
		start := j
		val := int64(0)
		for ; j < end; j++ {
			d, hx := hexDigit(s[j])
			if !hx {
				break
			}
			if val < 1<<40 {
				val = val<<4 | int64(d)
			}
		}
		if j == start {
			return nil, false, false
		}
		if neg && val != 0 || val > 255 {
			outOfRange = true
		}
		b = append(b, byte(val))
		i = j
	}
	for ; i < len(s); i++ {
		if !isCSpace(s[i]) {
			return nil, false, false
		}
	}
	return b, true, outOfRange
}

// ParseMacAddr8 reads a macaddr8 as macaddr8_in does: blanks, then pairs
// of hex digits with one kind of separator (: - or .) between any of
// them, 6 or 8 bytes (6 become an EUI-64 with ff:fe in the middle), and
// trailing blanks.
func ParseMacAddr8(s string) (Value, error) {
	bad := func() error {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type macaddr8: \"%s\"", s)
	}
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	var b []byte
	var spacer byte
	for i+1 < len(s) {
		if len(b) == 8 {
			return Null, bad()
		}
		hi, ok1 := hexDigit(s[i])
		lo, ok2 := hexDigit(s[i+1])
		if !ok1 || !ok2 {
			return Null, bad()
		}
		b = append(b, hi<<4|lo)
		i += 2
		if c := at(s, i); c == ':' || c == '-' || c == '.' {
			if spacer == 0 {
				spacer = c
			} else if spacer != c {
				return Null, bad()
			}
			i++
		}
		if (len(b) == 6 || len(b) == 8) && i < len(s) && isCSpace(s[i]) {
			for i++; i < len(s) && isCSpace(s[i]); i++ {
			}
			if i < len(s) {
				return Null, bad()
			}
		}
	}
	switch len(b) {
	case 6:
		b = []byte{b[0], b[1], b[2], 0xff, 0xfe, b[3], b[4], b[5]}
	case 8:
	default:
		return Null, bad()
	}
	// A lone character left over (an odd digit) is no pair: PostgreSQL's
	// loop stops before it and the count decides, as here.
	return NewMacAddr(b), nil
}

// MacAddrTo8 is the cast of macaddr to macaddr8: ff:fe in the middle.
func MacAddrTo8(s string) Value {
	return NewMacAddr([]byte{s[0], s[1], s[2], 0xff, 0xfe, s[3], s[4], s[5]})
}

// MacAddr8To6 is the cast of macaddr8 to macaddr, for addresses with
// ff:fe as their 4th and 5th bytes.
func MacAddr8To6(s string) (Value, error) {
	if s[3] != 0xff || s[4] != 0xfe {
		return Null, pgerr.New(pgerr.NumericValueOutOfRange, "macaddr8 data out of range to convert to macaddr").
			WithHint("Only addresses that have FF and FE as values in the 4th and 5th bytes from the left, for example xx:xx:xx:ff:fe:xx:xx:xx, are eligible to be converted from macaddr8 to macaddr.")
	}
	return NewMacAddr([]byte{s[0], s[1], s[2], s[5], s[6], s[7]}), nil
}

// castNet converts between the network types and from and to the
// string types: ok is false when neither side is one.
func castNet(v Value, t Type) (Value, bool, error) {
	switch {
	case v.K == KindInet && (t.ID == Inet || t.ID == Cidr):
		if t.ID == Cidr {
			return InetToCidr(v), true, nil
		}
		return InetValueAs(v, false), true, nil
	case v.K == KindMacAddr && t.ID == MacAddr:
		if len(v.S) == 8 {
			r, err := MacAddr8To6(v.S)
			return r, true, err
		}
		return v, true, nil
	case v.K == KindMacAddr && t.ID == MacAddr8:
		if len(v.S) == 6 {
			return MacAddrTo8(v.S), true, nil
		}
		return v, true, nil
	}
	return Null, false, nil
}

// parseNet is ParseText for the network types.
func parseNet(t Type, s string) (Value, error) {
	switch t.ID {
	case Inet, Cidr:
		return ParseInet(s, t.ID == Cidr)
	case MacAddr:
		return ParseMacAddr(s)
	default:
		return ParseMacAddr8(s)
	}
}

// appendNet is AppendText for the network kinds.
func appendNet(buf []byte, v Value) []byte {
	if v.K == KindInet {
		return AppendInet(buf, v.Inet())
	}
	return AppendMacAddr(buf, v.S)
}
