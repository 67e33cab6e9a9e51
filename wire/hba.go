package wire

import (
	"bufio"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"
)

// HBAMethod is how an HBA rule authenticates the connections it matches.
type HBAMethod string

// The methods an HBA file may name.
const (
	// HBATrust lets the role in without a password.
	HBATrust HBAMethod = "trust"
	// HBAReject refuses the connection.
	HBAReject HBAMethod = "reject"
	// HBASCRAM is SCRAM-SHA-256. md5 is read as it: zproxy stores SCRAM
	// verifiers only, and PostgreSQL runs SCRAM for md5 when the role's
	// password is a SCRAM verifier.
	HBASCRAM HBAMethod = "scram-sha-256"
	// HBAPassword asks for the password in clear text (over TLS, or
	// where the network is trusted), checked against the verifier.
	HBAPassword HBAMethod = "password"
)

// HBARule is one line of an HBA file, in PostgreSQL's pg_hba.conf syntax.
type HBARule struct {
	Line int
	// Type is local, host, hostssl or hostnossl.
	Type string
	// Databases and Users are the line's lists; "all" matches any,
	// "sameuser" and "samerole" compare the database name with the
	// user's, and "+group" (users) any member of group.
	Databases []string
	Users     []string
	// Prefix is the address range (unset for local rules and "all").
	Prefix  netip.Prefix
	AnyAddr bool
	Method  HBAMethod
}

// HBA is an HBA file's rules, in order: the first rule a connection
// matches decides its method; none matching refuses it.
type HBA struct{ Rules []HBARule }

// ParseHBA reads PostgreSQL's pg_hba.conf syntax: one rule a line, "#"
// comments, fields separated by blanks, lists by commas, names in double
// quotes taken as written (so "all" is a name, not the keyword). It
// refuses what zproxy cannot honour (other methods, host names, options,
// @file inclusion) rather than skipping it.
func ParseHBA(r io.Reader) (*HBA, error) {
	h := &HBA{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		fields, err := hbaFields(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if len(fields) == 0 {
			continue
		}
		rule, err := hbaRule(n, fields)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		h.Rules = append(h.Rules, rule)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return h, nil
}

// hbaToken is one comma-separated item of a field; quoted keeps a quoted
// name from reading as a keyword.
type hbaToken struct {
	s      string
	quoted bool
}

// hbaFields splits a line into fields, each a list of items.
func hbaFields(line string) ([][]hbaToken, error) {
	var fields [][]hbaToken
	var cur []hbaToken
	var tok strings.Builder
	inQuote, quoted, inField, afterComma := false, false, false, false
	endItem := func() {
		cur = append(cur, hbaToken{tok.String(), quoted})
		tok.Reset()
		quoted = false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inQuote && c == '"':
			if i+1 < len(line) && line[i+1] == '"' {
				tok.WriteByte('"')
				i++
				continue
			}
			inQuote = false
		case inQuote:
			tok.WriteByte(c)
		case c == '#':
			i = len(line)
		case c == '"':
			inQuote, quoted, inField = true, true, true
		case c == ' ' || c == '\t' || c == '\r':
			if afterComma {
				continue // "a, b" is one list
			}
			if inField {
				endItem()
				fields = append(fields, cur)
				cur, inField = nil, false
			}
		case c == ',':
			endItem()
			afterComma = true
			continue
		default:
			tok.WriteByte(c)
			inField = true
		}
		afterComma = false
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated quoted string")
	}
	if inField {
		endItem()
		fields = append(fields, cur)
	}
	return fields, nil
}

func hbaRule(line int, fields [][]hbaToken) (HBARule, error) {
	single := func(i int, what string) (string, error) {
		if len(fields[i]) != 1 {
			return "", fmt.Errorf("multiple values specified for %s", what)
		}
		return fields[i][0].s, nil
	}
	r := HBARule{Line: line}
	typ, err := single(0, "connection type")
	if err != nil {
		return r, err
	}
	switch typ {
	case "local", "host", "hostssl", "hostnossl":
	case "hostgssenc", "hostnogssenc":
		return r, fmt.Errorf("connection type %q is not supported: zproxy has no GSSAPI encryption", typ)
	default:
		return r, fmt.Errorf("invalid connection type %q", typ)
	}
	r.Type = typ
	want := 4
	if typ != "local" {
		want = 5
	}
	if len(fields) < want {
		return r, fmt.Errorf("end-of-line before authentication method")
	}
	list := func(i int) ([]string, error) {
		var out []string
		for _, t := range fields[i] {
			switch {
			case strings.HasPrefix(t.s, "@") && !t.quoted:
				return nil, fmt.Errorf("@file inclusion is not supported")
			case t.quoted && (t.s == "all" || t.s == "sameuser" || t.s == "samerole" || t.s == "replication"):
				out = append(out, "\x00"+t.s) // a name, not the keyword
			default:
				out = append(out, t.s)
			}
		}
		return out, nil
	}
	if r.Databases, err = list(1); err != nil {
		return r, err
	}
	if r.Users, err = list(2); err != nil {
		return r, err
	}
	k := 3
	if typ != "local" {
		addr, err := single(3, "address")
		if err != nil {
			return r, err
		}
		k = 4
		switch {
		case addr == "all":
			r.AnyAddr = true
		case addr == "samehost" || addr == "samenet":
			return r, fmt.Errorf("address %q is not supported; give a CIDR range", addr)
		case strings.Contains(addr, "/"):
			p, err := netip.ParsePrefix(addr)
			if err != nil {
				return r, fmt.Errorf("invalid IP address range %q", addr)
			}
			r.Prefix = p.Masked()
		default:
			a, err := netip.ParseAddr(addr)
			if err != nil {
				return r, fmt.Errorf("invalid IP address %q (host names are not supported)", addr)
			}
			// The mask follows in a field of its own.
			if len(fields) < 6 {
				return r, fmt.Errorf("end-of-line before netmask specification")
			}
			m, err := single(4, "netmask")
			if err != nil {
				return r, err
			}
			mask, err := netip.ParseAddr(m)
			if err != nil || mask.Is4() != a.Is4() {
				return r, fmt.Errorf("invalid IP mask %q", m)
			}
			bits, ok := maskBits(mask)
			if !ok {
				return r, fmt.Errorf("invalid IP mask %q", m)
			}
			r.Prefix = netip.PrefixFrom(a, bits).Masked()
			k = 5
		}
	}
	method, err := single(k, "authentication method")
	if err != nil {
		return r, err
	}
	switch method {
	case "trust":
		r.Method = HBATrust
	case "reject":
		r.Method = HBAReject
	case "scram-sha-256", "md5":
		r.Method = HBASCRAM
	case "password":
		r.Method = HBAPassword
	default:
		return r, fmt.Errorf("authentication method %q is not supported (trust, reject, scram-sha-256, md5, password)", method)
	}
	if len(fields) > k+1 {
		return r, fmt.Errorf("authentication options are not supported")
	}
	return r, nil
}

// maskBits is the prefix length of a netmask such as 255.255.255.0.
func maskBits(m netip.Addr) (int, bool) {
	b := m.AsSlice()
	bits, ended := 0, false
	for _, x := range b {
		for i := 7; i >= 0; i-- {
			set := x&(1<<i) != 0
			switch {
			case set && ended:
				return 0, false
			case set:
				bits++
			default:
				ended = true
			}
		}
	}
	return bits, true
}

// hbaConn is what a rule is matched against.
type hbaConn struct {
	local    bool // a Unix-domain socket
	ssl      bool
	addr     netip.Addr
	database string
	user     string
	groups   []string // the roles user is a member of
}

// Match returns the first rule the connection matches (nil: none).
func (h *HBA) match(c hbaConn) *HBARule {
	for i := range h.Rules {
		r := &h.Rules[i]
		switch r.Type {
		case "local":
			if !c.local {
				continue
			}
		default:
			if c.local || r.Type == "hostssl" && !c.ssl || r.Type == "hostnossl" && c.ssl {
				continue
			}
			if !r.AnyAddr && !r.Prefix.Contains(c.addr.Unmap()) {
				continue
			}
		}
		if !r.matchesDatabase(c) || !r.matchesUser(c) {
			continue
		}
		return r
	}
	return nil
}

func (r *HBARule) matchesDatabase(c hbaConn) bool {
	for _, d := range r.Databases {
		switch d {
		case "all":
			return true
		case "sameuser":
			if c.database == c.user {
				return true
			}
		case "samerole", "samegroup":
			if c.database == c.user || slices.Contains(c.groups, c.database) {
				return true
			}
		case "replication":
			// zproxy takes no replication connections.
		default:
			if strings.TrimPrefix(d, "\x00") == c.database {
				return true
			}
		}
	}
	return false
}

func (r *HBARule) matchesUser(c hbaConn) bool {
	for _, u := range r.Users {
		switch {
		case u == "all":
			return true
		case strings.HasPrefix(u, "+"):
			g := u[1:]
			if g == c.user || slices.Contains(c.groups, g) {
				return true
			}
		case strings.TrimPrefix(u, "\x00") == c.user:
			return true
		}
	}
	return false
}
