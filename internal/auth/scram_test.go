package auth

import (
	"bytes"
	"crypto/tls"
	"errors"
	"testing"

	"github.com/xdg-go/scram"

	"github.com/zproxy/zproxy/internal/testcert"
)

// Verifiers PostgreSQL 15 stored for CREATE ROLE ... PASSWORD.
var pgVerifiers = []struct {
	password, other string // other: another spelling SASLprep maps to the same password
	verifier        string
}{
	{"pencil", "", "SCRAM-SHA-256$4096:qvbIXgnyR6V6Qbcce70P+w==$3yzUR7ELTH8LcvldrTzqji6Rv7KYu1ocsK0cqxJlXIg=:Zc0l5y5+l2VsgiojgzhxL+vhnSw5NSkSHrHl77rpHLM="},
	{`p\u00e4ss ﬁ`, `p\u00e4ss fi`, "SCRAM-SHA-256$4096:8DZNEzIk6SffKpPejJnWBg==$j8ixAD8lhqH/KwH43LE63EagpOasFgTIFundRUBUhB8=:nd/5Ni6vk4M5Ubm0mnkEiGMRpDZjUMoOQ69jAh24Sxs="},
}

func TestVerifierMatchesPostgres(t *testing.T) {
	for _, tc := range pgVerifiers {
		v, err := ParseVerifier(tc.verifier)
		if err != nil {
			t.Fatalf("ParseVerifier(%q): %v", tc.verifier, err)
		}
		if got := v.String(); got != tc.verifier {
			t.Errorf("String() = %q, want %q", got, tc.verifier)
		}
		if !v.Check(tc.password) {
			t.Errorf("Check(%q) = false against PostgreSQL's verifier", tc.password)
		}
		if tc.other != "" && !v.Check(tc.other) {
			t.Errorf("Check(%q) = false: SASLprep should map it to %q", tc.other, tc.password)
		}
		if v.Check(tc.password + "x") {
			t.Errorf("Check accepts a wrong password")
		}
	}
}

func TestNewVerifier(t *testing.T) {
	a, err := NewVerifier("secret")
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewVerifier("secret")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Salt, b.Salt) {
		t.Error("two verifiers share a salt")
	}
	if a.Iterations != DefaultIterations || len(a.Salt) != saltLen {
		t.Errorf("verifier %v: want %d iterations and a %d-byte salt", a, DefaultIterations, saltLen)
	}
	p, err := ParseVerifier(a.String())
	if err != nil || !p.Check("secret") {
		t.Errorf("round trip of %q: %v", a, err)
	}
	// A password SASLprep refuses (a prohibited control character) is
	// used as it is, as PostgreSQL does.
	c, err := NewVerifier("a\u0007b")
	if err != nil || !c.Check("a\u0007b") {
		t.Errorf("unprepped password: %v", err)
	}
}

func TestParseVerifierRejects(t *testing.T) {
	for _, s := range []string{
		"", "secret", "md5abcdef0123456789abcdef0123456789",
		"SCRAM-SHA-256$", "SCRAM-SHA-256$4096:c2FsdA==",
		"SCRAM-SHA-256$x:c2FsdA==$AAAA:AAAA",
		"SCRAM-SHA-256$0:c2FsdA==$3yzUR7ELTH8LcvldrTzqji6Rv7KYu1ocsK0cqxJlXIg=:Zc0l5y5+l2VsgiojgzhxL+vhnSw5NSkSHrHl77rpHLM=",
		"SCRAM-SHA-256$4096:c2FsdA==$AAAA:Zc0l5y5+l2VsgiojgzhxL+vhnSw5NSkSHrHl77rpHLM=",
	} {
		if IsVerifier(s) {
			t.Errorf("IsVerifier(%q) = true", s)
		}
	}
}

// exchange runs a whole SCRAM exchange between xdg-go's client and an
// Exchange, and returns the server's error.
func exchange(t *testing.T, v Verifier, known bool, password string, serverCB []byte, clientConv func(*scram.Client) *scram.ClientConversation, mech string) error {
	t.Helper()
	client, err := scram.SHA256.NewClient("", password, "")
	if err != nil {
		t.Fatal(err)
	}
	cc := clientConv(client)
	ex, err := NewExchange(mech, v, known, serverCB)
	if err != nil {
		return err
	}
	first, err := cc.Step("")
	if err != nil {
		t.Fatal(err)
	}
	s1, done, err := ex.Step([]byte(first))
	if err != nil || done {
		return errors.Join(err, errors.New("done after the first message"))
	}
	final, err := cc.Step(string(s1))
	if err != nil {
		t.Fatal(err)
	}
	s2, done, err := ex.Step([]byte(final))
	if err != nil {
		return err
	}
	if !done {
		t.Fatal("not done after the final message")
	}
	if _, err := cc.Step(string(s2)); err != nil {
		t.Fatalf("client rejects the server's signature: %v", err)
	}
	return nil
}

func TestExchange(t *testing.T) {
	v, err := NewVerifier("secret")
	if err != nil {
		t.Fatal(err)
	}
	cb := ChannelBinding(testCert(t))
	if cb == nil {
		t.Fatal("no channel binding data for an ECDSA certificate")
	}
	plain := func(c *scram.Client) *scram.ClientConversation { return c.NewConversation() }
	bound := func(c *scram.Client) *scram.ClientConversation {
		return c.NewConversationWithChannelBinding(scram.ChannelBinding{Type: scram.ChannelBindingTLSServerEndpoint, Data: cb})
	}
	wrongBinding := func(c *scram.Client) *scram.ClientConversation {
		return c.NewConversationWithChannelBinding(scram.ChannelBinding{Type: scram.ChannelBindingTLSServerEndpoint, Data: []byte("other certificate")})
	}
	downgraded := func(c *scram.Client) *scram.ClientConversation { return c.NewConversationAdvertisingChannelBinding() }
	for _, tc := range []struct {
		name     string
		known    bool
		password string
		serverCB []byte
		conv     func(*scram.Client) *scram.ClientConversation
		mech     string
		want     error
	}{
		{"right password", true, "secret", nil, plain, MechanismSCRAM, nil},
		{"wrong password", true, "Secret", nil, plain, MechanismSCRAM, ErrFailed},
		{"unknown user", false, "secret", nil, plain, MechanismSCRAM, ErrFailed},
		{"channel binding", true, "secret", cb, bound, MechanismSCRAMPlus, nil},
		{"channel binding, wrong password", true, "x", cb, bound, MechanismSCRAMPlus, ErrFailed},
		{"channel binding of another certificate", true, "secret", cb, wrongBinding, MechanismSCRAMPlus, ErrFailed},
		{"TLS without binding", true, "secret", cb, plain, MechanismSCRAM, nil},
		{"downgrade: client could bind but thinks the server cannot", true, "secret", cb, downgraded, MechanismSCRAM, ErrFailed},
		{"PLUS without TLS", true, "secret", nil, bound, MechanismSCRAMPlus, ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := exchange(t, v, tc.known, tc.password, tc.serverCB, tc.conv, tc.mech)
			if !errors.Is(err, tc.want) && !(err == nil && tc.want == nil) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestExchangeMalformed(t *testing.T) {
	v, _ := NewVerifier("secret")
	for _, msg := range []string{"", "garbage", "n,,n=,", "x,,n=,r=abc", "n,,m=ext,n=,r=abc"} {
		ex, err := NewExchange(MechanismSCRAM, v, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := ex.Step([]byte(msg)); err == nil {
			t.Errorf("Step(%q) accepted", msg)
		}
	}
}

func TestMechanisms(t *testing.T) {
	if got := Mechanisms(nil); len(got) != 1 || got[0] != MechanismSCRAM {
		t.Errorf("Mechanisms(nil) = %v", got)
	}
	if got := Mechanisms([]byte{1}); len(got) != 2 || got[0] != MechanismSCRAMPlus {
		t.Errorf("Mechanisms(cb) = %v", got)
	}
	if !bytes.Equal(MockSalt([]byte("k"), "u"), MockSalt([]byte("k"), "u")) || bytes.Equal(MockSalt([]byte("k"), "u"), MockSalt([]byte("k"), "v")) {
		t.Error("MockSalt is not a function of the user")
	}
}

// testCert returns a server certificate signed by a test CA.
func testCert(t *testing.T) *tls.Certificate {
	t.Helper()
	pair, err := testcert.New()
	if err != nil {
		t.Fatal(err)
	}
	return &pair.Cert
}
