package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostgreSQL's functions and operators over the network address types
// (network.c, mac.c, mac8.c). The values themselves are sqltypes'
// (net.go); comparisons are sqltypes.Compare's.

var (
	tInet     = sqltypes.TypeInet
	tCidr     = sqltypes.TypeCidr
	tMacAddr  = sqltypes.TypeMacAddr
	tMacAddr8 = sqltypes.TypeMacAddr8
)

// inetFn is an immutable, strict function of one inet.
func inetFn(result sqltypes.Type, doc string, f func(n sqltypes.InetAddr) (sqltypes.Value, error)) Overload {
	return Overload{Params: []Param{T(tInet)}, Result: Returns(result), Volatility: Immutable, Doc: doc,
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a[0].Inet()) }}
}

// maskBytes returns the address with the first bits ones (ones true) or
// the bits after them ones (ones false, a host mask), over size bytes.
func maskBytes(bits, size int, network bool) [16]byte {
	var all sqltypes.InetAddr
	for i := range all.Addr {
		all.Addr[i] = 0xff
	}
	if size == 4 {
		all.Family = sqltypes.InetFamily4
	} else {
		all.Family = sqltypes.InetFamily6
	}
	m := all.Masked(bits)
	if !network {
		for i := 0; i < size; i++ {
			m[i] ^= 0xff
		}
	}
	for i := size; i < 16; i++ {
		m[i] = 0
	}
	return m
}

// commonBits is how many leading bits, of the first n, a and b share
// (bitncommon).
func commonBits(a, b *[16]byte, n int) int {
	for i := 0; i < n; i++ {
		if a[i/8]>>(7-i%8)&1 != b[i/8]>>(7-i%8)&1 {
			return i
		}
	}
	return n
}

func differentFamilies(what string) error {
	return pgerr.New(pgerr.InvalidParameterValue, "cannot %s inet values of different sizes", what)
}

func inetOutOfRange() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "result is out of range")
}

// inetAdd is inet + bigint (and inet - bigint with the addend negated):
// the address plus the addend, carried across its bytes, the mask kept;
// an address past either end of the family's range is out of range.
func inetAdd(v sqltypes.Value, addend int64) (sqltypes.Value, error) {
	n := v.Inet()
	n.Cidr = false
	carry := 0
	for i := n.Size() - 1; i >= 0; i-- {
		carry += int(n.Addr[i]) + int(addend&0xff)
		n.Addr[i] = byte(carry)
		carry >>= 8
		addend >>= 8 // an arithmetic shift: exact, the low byte being used
	}
	if !(addend == 0 && carry == 0 || addend == -1 && carry == 1) {
		return sqltypes.Null, inetOutOfRange()
	}
	return sqltypes.NewInet(n), nil
}

// inetSub is inet - inet: the difference of the addresses as a bigint.
func inetSub(a, b sqltypes.Value) (sqltypes.Value, error) {
	x, y := a.Inet(), b.Inet()
	if x.Family != y.Family {
		return sqltypes.Null, differentFamilies("subtract")
	}
	// Two's complement: a + ^b + 1, byte by byte from the right.
	var res int64
	carry, k := 1, 0
	for i := x.Size() - 1; i >= 0; i-- {
		carry += int(x.Addr[i]) + int(^y.Addr[i])
		lo := byte(carry)
		if k < 8 {
			res |= int64(lo) << (8 * k)
		} else if res < 0 && lo != 0xff || res >= 0 && lo != 0 {
			return sqltypes.Null, inetOutOfRange()
		}
		carry >>= 8
		k++
	}
	if carry == 0 && k < 8 {
		res |= -1 << (8 * k) // sign extension of a negative IPv4 difference
	}
	return sqltypes.NewInt(res), nil
}

// inetBitwise is inet & inet and inet | inet: bytewise, the longer mask.
func inetBitwise(op string, a, b sqltypes.Value) (sqltypes.Value, error) {
	x, y := a.Inet(), b.Inet()
	if x.Family != y.Family {
		return sqltypes.Null, differentFamilies(map[string]string{"&": "AND", "|": "OR"}[op])
	}
	r := sqltypes.InetAddr{Family: x.Family, Bits: max(x.Bits, y.Bits)}
	for i := 0; i < x.Size(); i++ {
		if op == "&" {
			r.Addr[i] = x.Addr[i] & y.Addr[i]
		} else {
			r.Addr[i] = x.Addr[i] | y.Addr[i]
		}
	}
	return sqltypes.NewInet(r), nil
}

// macBitwise is & and | of two macaddr or two macaddr8 values.
func macBitwise(op string, a, b sqltypes.Value) (sqltypes.Value, error) {
	out := []byte(a.S)
	for i := range out {
		if op == "&" {
			out[i] &= b.S[i]
		} else {
			out[i] |= b.S[i]
		}
	}
	return sqltypes.NewMacAddr(out), nil
}

// inetContains reports the containment operators: << (strict) and <<=
// of a within b; >> and >>= swap the operands.
func inetContains(a, b sqltypes.InetAddr, strict bool) bool {
	if a.Family != b.Family || a.Bits < b.Bits || strict && a.Bits == b.Bits {
		return false
	}
	return commonBits(&a.Addr, &b.Addr, b.Bits) == b.Bits
}

// setMasklen is set_masklen for inet (cidr false: the address kept) and
// cidr (the host bits cleared); -1 means the whole address.
func setMasklen(v sqltypes.Value, bits int64, cidr bool) (sqltypes.Value, error) {
	n := v.Inet()
	if bits == -1 {
		bits = int64(n.MaxBits())
	}
	if bits < 0 || bits > int64(n.MaxBits()) {
		return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "invalid mask length: %d", bits)
	}
	n.Bits, n.Cidr = int(bits), cidr
	if cidr {
		n.Addr = n.Masked(n.Bits)
	}
	return sqltypes.NewInet(n), nil
}

func init() {
	text, int4, int8, boolean := sqltypes.TypeText, sqltypes.TypeInt4, sqltypes.TypeInt8, sqltypes.TypeBool
	inetText := func(f func(sqltypes.InetAddr) string) func(n sqltypes.InetAddr) (sqltypes.Value, error) {
		return func(n sqltypes.InetAddr) (sqltypes.Value, error) { return sqltypes.NewText(f(n)), nil }
	}
	Register("abbrev",
		inetFn(text, "the address in short form as text", inetText(sqltypes.InetAbbrev)),
		Overload{Params: []Param{T(tCidr)}, Result: Returns(text), Volatility: Immutable, Doc: "the network in short form as text (only the octets its mask reaches)",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				n := a[0].Inet()
				n.Cidr = true
				return sqltypes.NewText(sqltypes.InetAbbrev(n)), nil
			}})
	Register("host", inetFn(text, "the address as text, without the mask", inetText(sqltypes.InetHost)))
	Register("text", inetFn(text, "the address and mask length as text", inetText(sqltypes.InetText)))
	Register("family", inetFn(int4, "the address family: 4 for IPv4, 6 for IPv6", func(n sqltypes.InetAddr) (sqltypes.Value, error) {
		if n.Family == sqltypes.InetFamily6 {
			return sqltypes.NewInt(6), nil
		}
		return sqltypes.NewInt(4), nil
	}))
	Register("masklen", inetFn(int4, "the mask length", func(n sqltypes.InetAddr) (sqltypes.Value, error) {
		return sqltypes.NewInt(int64(n.Bits)), nil
	}))
	Register("broadcast", inetFn(tInet, "the broadcast address of the network (host bits set)", func(n sqltypes.InetAddr) (sqltypes.Value, error) {
		m := maskBytes(n.Bits, n.Size(), false)
		for i := range m {
			n.Addr[i] |= m[i]
		}
		n.Cidr = false
		return sqltypes.NewInet(n), nil
	}))
	Register("network", inetFn(tCidr, "the network part of the address (host bits cleared)", func(n sqltypes.InetAddr) (sqltypes.Value, error) {
		n.Addr, n.Cidr = n.Masked(n.Bits), true
		return sqltypes.NewInet(n), nil
	}))
	Register("netmask", inetFn(tInet, "the network mask as an address", func(n sqltypes.InetAddr) (sqltypes.Value, error) {
		return sqltypes.NewInet(sqltypes.InetAddr{Family: n.Family, Bits: n.MaxBits(), Addr: maskBytes(n.Bits, n.Size(), true)}), nil
	}))
	Register("hostmask", inetFn(tInet, "the host mask as an address", func(n sqltypes.InetAddr) (sqltypes.Value, error) {
		return sqltypes.NewInet(sqltypes.InetAddr{Family: n.Family, Bits: n.MaxBits(), Addr: maskBytes(n.Bits, n.Size(), false)}), nil
	}))
	Register("set_masklen",
		Overload{Params: []Param{T(tInet), T(int4)}, Result: Returns(tInet), Volatility: Immutable, Doc: "the address with another mask length",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return setMasklen(a[0], a[1].I, false) }},
		Overload{Params: []Param{T(tCidr), T(int4)}, Result: Returns(tCidr), Volatility: Immutable, Doc: "the network with another mask length, host bits cleared",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return setMasklen(a[0], a[1].I, true) }})
	Register("inet_same_family", Overload{Params: []Param{T(tInet), T(tInet)}, Result: Returns(boolean), Volatility: Immutable,
		Doc: "whether the addresses are of the same family",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(a[0].Inet().Family == a[1].Inet().Family), nil
		}})
	Register("inet_merge", Overload{Params: []Param{T(tInet), T(tInet)}, Result: Returns(tCidr), Volatility: Immutable,
		Doc: "the smallest network that contains both addresses",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			x, y := a[0].Inet(), a[1].Inet()
			if x.Family != y.Family {
				return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "cannot merge addresses from different families")
			}
			bits := commonBits(&x.Addr, &y.Addr, min(x.Bits, y.Bits))
			return sqltypes.NewInet(sqltypes.InetAddr{Family: x.Family, Bits: bits, Addr: x.Masked(bits), Cidr: true}), nil
		}})
	Register("cidr", Overload{Params: []Param{T(tInet)}, Result: Returns(tCidr), Volatility: Immutable, Doc: "the address as a network (host bits cleared)",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.InetToCidr(a[0]), nil }})
	Register("macaddr", Overload{Params: []Param{T(tMacAddr8)}, Result: Returns(tMacAddr), Volatility: Immutable,
		Doc:  "the EUI-64 address as an EUI-48 (its 4th and 5th bytes must be ff:fe)",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.MacAddr8To6(a[0].S) }})
	Register("macaddr8", Overload{Params: []Param{T(tMacAddr)}, Result: Returns(tMacAddr8), Volatility: Immutable,
		Doc:  "the EUI-48 address as an EUI-64 (ff:fe inserted in the middle)",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.MacAddrTo8(a[0].S), nil }})
	trunc := func(t sqltypes.Type, keep int, doc string) Overload {
		return Overload{Params: []Param{T(t)}, Result: Returns(t), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				out := make([]byte, len(a[0].S))
				copy(out, a[0].S[:keep])
				return sqltypes.NewMacAddr(out), nil
			}}
	}
	Register("trunc",
		trunc(tMacAddr, 3, "the manufacturer's part of the address, the rest zero"),
		trunc(tMacAddr8, 3, "the manufacturer's part of the address, the rest zero"))
	Register("macaddr8_set7bit", Overload{Params: []Param{T(tMacAddr8)}, Result: Returns(tMacAddr8), Volatility: Immutable,
		Doc: "the address with its 7th bit set (a modified EUI-64 for an IPv6 interface identifier)",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			out := []byte(a[0].S)
			out[0] |= 0x02
			return sqltypes.NewMacAddr(out), nil
		}})

	// The connection's addresses: NULL over a Unix socket, as in
	// PostgreSQL.
	endpoint := func(name, doc string, server, port bool) {
		result := tInet
		if port {
			result = int4
		}
		Register(name, Overload{Result: Returns(result), Volatility: Stable, Doc: doc, CalledOnNull: true,
			Eval: func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
				if ctx == nil {
					return sqltypes.Null, nil
				}
				ap := ctx.Session.ClientAddr
				if server {
					ap = ctx.Session.ServerAddr
				}
				if !ap.IsValid() {
					return sqltypes.Null, nil
				}
				if port {
					return sqltypes.NewInt(int64(ap.Port())), nil
				}
				return sqltypes.InetFromAddr(ap.Addr()), nil
			}})
	}
	endpoint("inet_client_addr", "the client's address (NULL over a Unix socket)", false, false)
	endpoint("inet_client_port", "the client's port (NULL over a Unix socket)", false, true)
	endpoint("inet_server_addr", "the server's address the client connected to (NULL over a Unix socket)", true, false)
	endpoint("inet_server_port", "the server's port the client connected to (NULL over a Unix socket)", true, true)

	// Operators.
	contains := func(strict, swap bool) Overload {
		return binop(tInet, tInet, boolean, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			if swap {
				a, b = b, a
			}
			return sqltypes.NewBool(inetContains(a.Inet(), b.Inet(), strict)), nil
		})
	}
	RegisterOperator("<<", contains(true, false))
	RegisterOperator("<<=", contains(false, false))
	RegisterOperator(">>", contains(true, true))
	RegisterOperator(">>=", contains(false, true))
	RegisterOperator("&&", binop(tInet, tInet, boolean, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		x, y := a.Inet(), b.Inet()
		bits := min(x.Bits, y.Bits)
		return sqltypes.NewBool(x.Family == y.Family && commonBits(&x.Addr, &y.Addr, bits) == bits), nil
	}))
	for _, op := range []string{"&", "|"} {
		op := op
		RegisterOperator(op, binop(tInet, tInet, tInet, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return inetBitwise(op, a, b)
		}))
		for _, t := range []sqltypes.Type{tMacAddr, tMacAddr8} {
			RegisterOperator(op, binop(t, t, t, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
				return macBitwise(op, a, b)
			}))
		}
	}
	RegisterOperator("~",
		prefix(tInet, func(v sqltypes.Value) (sqltypes.Value, error) {
			n := v.Inet()
			for i := 0; i < n.Size(); i++ {
				n.Addr[i] = ^n.Addr[i]
			}
			n.Cidr = false
			return sqltypes.NewInet(n), nil
		}),
		prefix(tMacAddr, macNot), prefix(tMacAddr8, macNot))
	RegisterOperator("+",
		binop(tInet, int8, tInet, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return inetAdd(a, b.I) }),
		binop(int8, tInet, tInet, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return inetAdd(b, a.I) }))
	RegisterOperator("-",
		binop(tInet, int8, tInet, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			if b.I == -1<<63 {
				// -addend overflows; PostgreSQL negates in int64 too and
				// then finds the sum out of range.
				return sqltypes.Null, inetOutOfRange()
			}
			return inetAdd(a, -b.I)
		}),
		binop(tInet, tInet, int8, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return inetSub(a, b) }))
}

func macNot(v sqltypes.Value) (sqltypes.Value, error) {
	out := []byte(v.S)
	for i := range out {
		out[i] = ^out[i]
	}
	return sqltypes.NewMacAddr(out), nil
}
