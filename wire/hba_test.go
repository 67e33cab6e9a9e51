package wire

import (
	"net/netip"
	"strings"
	"testing"
)

// hbaConfig is a server configuration with the HBA rules of text.
func hbaConfig(t *testing.T, text string) Config {
	t.Helper()
	h, err := ParseHBA(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return Config{HBA: h}
}

func TestParseHBAErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"hostx all all all trust", `line 1: invalid connection type "hostx"`},
		{"host all all 127.0.0.1/32", "line 1: end-of-line before authentication method"},
		{"# c\n\nhost all all 127.0.0.1/32 peer", `line 3: authentication method "peer" is not supported`},
		{"host all all samenet trust", `line 1: address "samenet" is not supported`},
		{"host all all example.com trust", `line 1: invalid IP address "example.com" (host names are not supported)`},
		{"host all all 10.0.0.0/40 trust", `line 1: invalid IP address range "10.0.0.0/40"`},
		{"host all all 10.0.0.1 255.0.255.0 trust", `line 1: invalid IP mask "255.0.255.0"`},
		{"host all all 10.0.0.1 trust", "line 1: end-of-line before netmask specification"},
		{"host all @users all trust", "line 1: @file inclusion is not supported"},
		{"host all all all trust clientcert=verify-full", "line 1: authentication options are not supported"},
		{`host "all all all trust`, "line 1: unterminated quoted string"},
		{"hostgssenc all all all trust", `line 1: connection type "hostgssenc" is not supported`},
		{"local all all 127.0.0.1/32 trust", `line 1: authentication method "127.0.0.1/32" is not supported`},
	}
	for _, tt := range tests {
		_, err := ParseHBA(strings.NewReader(tt.text))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("ParseHBA(%q) = %v, want %s", tt.text, err, tt.want)
		}
	}
}

func TestHBAMatch(t *testing.T) {
	text := `# TYPE  DATABASE        USER            ADDRESS                 METHOD
local   all             all                                     trust
host    sameuser        all             10.1.0.0/16             trust
host    "all"           +admins         10.2.0.0/16             scram-sha-256
host    db1, db2        alice,"Bob"     10.3.0.0 255.255.0.0    password
hostssl all             all             ::1/128                 trust
hostnossl all           all             all                     reject
host    all             all             0.0.0.0/0               md5
`
	h, err := ParseHBA(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	addr := netip.MustParseAddr
	tests := []struct {
		name string
		c    hbaConn
		line int // 0: none
	}{
		{"unix socket", hbaConn{local: true, database: "d", user: "u"}, 2},
		{"sameuser", hbaConn{addr: addr("10.1.2.3"), database: "u", user: "u"}, 3},
		{"sameuser, another database", hbaConn{addr: addr("10.1.2.3"), database: "d", user: "u"}, 7},
		{"quoted all is a database's name", hbaConn{addr: addr("10.2.0.1"), database: "all", user: "u", groups: []string{"admins"}}, 4},
		{"+group, not a member", hbaConn{addr: addr("10.2.0.1"), database: "all", user: "u"}, 7},
		{"+group is the role itself", hbaConn{addr: addr("10.2.0.1"), database: "all", user: "admins"}, 4},
		{"lists, mask", hbaConn{addr: addr("10.3.9.9"), database: "db2", user: "Bob"}, 5},
		{"case of a quoted name", hbaConn{addr: addr("10.3.9.9"), database: "db2", user: "bob"}, 7},
		{"IPv4-mapped IPv6", hbaConn{addr: addr("::ffff:10.1.0.9"), database: "u", user: "u"}, 3},
		{"hostssl", hbaConn{addr: addr("::1"), ssl: true, database: "d", user: "u"}, 6},
		{"hostnossl", hbaConn{addr: addr("::1"), database: "d", user: "u"}, 7},
		{"IPv6 over SSL, no rule", hbaConn{addr: addr("fe80::1"), ssl: true, database: "d", user: "u"}, 0},
	}
	for _, tt := range tests {
		r := h.match(tt.c)
		got := 0
		if r != nil {
			got = r.Line
		}
		if got != tt.line {
			t.Errorf("%s: matched line %d, want %d", tt.name, got, tt.line)
		}
	}
	if m := h.Rules[len(h.Rules)-1].Method; m != HBASCRAM {
		t.Errorf("md5 reads as %q, want %q", m, HBASCRAM)
	}
}

// FuzzParseHBA: ParseHBA never panics; what it accepts has a known type
// and method and a valid address range on host lines.
func FuzzParseHBA(f *testing.F) {
	for _, s := range []string{"host all all 127.0.0.1/32 trust", "local all all trust\n# c", `host "a""b",c +g 10.0.0.1 255.255.255.0 password`,
		"hostssl sameuser all ::1/128 scram-sha-256", "host all all all reject", "", "\"", "host , , , ,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		h, err := ParseHBA(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, r := range h.Rules {
			switch r.Method {
			case HBATrust, HBAReject, HBASCRAM, HBAPassword:
			default:
				t.Fatalf("%q: method %q", text, r.Method)
			}
			if r.Type != "local" && !r.AnyAddr && !r.Prefix.IsValid() {
				t.Fatalf("%q: host rule without an address range", text)
			}
		}
	})
}
