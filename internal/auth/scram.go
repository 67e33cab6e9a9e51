// Package auth holds zproxy's password authentication: SCRAM-SHA-256
// verifiers in PostgreSQL's stored format and the server side of the SCRAM
// exchange (RFC 5802, RFC 7677, with tls-server-end-point channel binding,
// RFC 5929), on top of github.com/xdg-go/scram. The server never sees a
// password during authentication, and only verifiers are ever stored.
//
// It knows nothing of the protocol messages that carry the exchange (package
// wire) or of where verifiers are kept (the catalog's roles).
package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/xdg-go/scram"
)

// SASL mechanism names, as PostgreSQL advertises them.
const (
	MechanismSCRAM     = "SCRAM-SHA-256"
	MechanismSCRAMPlus = "SCRAM-SHA-256-PLUS"
)

// PostgreSQL's defaults for new verifiers (scram_iterations and
// SCRAM_DEFAULT_SALT_LEN).
const (
	DefaultIterations = 4096
	saltLen           = 16
	verifierPrefix    = "SCRAM-SHA-256$"
)

// Verifier is what a server keeps of a password: enough to check a client's
// SCRAM proof and to prove itself to the client, not enough to log in.
type Verifier struct {
	Iterations int
	Salt       []byte
	StoredKey  []byte
	ServerKey  []byte
}

// NewVerifier derives a verifier for password with a fresh random salt.
// Like PostgreSQL, it normalizes the password with SASLprep when it can
// and uses its bytes as they are when SASLprep refuses it, which is what
// libpq and the other clients do on their side.
func NewVerifier(password string) (Verifier, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return Verifier{}, err
	}
	return deriveVerifier(password, salt, DefaultIterations)
}

func deriveVerifier(password string, salt []byte, iterations int) (Verifier, error) {
	client, err := scram.SHA256.NewClient("", password, "")
	if err != nil {
		if client, err = scram.SHA256.NewClientUnprepped("", password, ""); err != nil {
			return Verifier{}, err
		}
	}
	creds, err := client.GetStoredCredentialsWithError(scram.KeyFactors{Salt: string(salt), Iters: iterations})
	if err != nil {
		return Verifier{}, err
	}
	return Verifier{Iterations: iterations, Salt: salt, StoredKey: creds.StoredKey, ServerKey: creds.ServerKey}, nil
}

// String returns the verifier in PostgreSQL's pg_authid.rolpassword form,
// SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>, base64 fields.
func (v Verifier) String() string {
	enc := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("%s%d:%s$%s:%s", verifierPrefix, v.Iterations, enc(v.Salt), enc(v.StoredKey), enc(v.ServerKey))
}

// ParseVerifier reads a verifier in PostgreSQL's form, such as psql's
// \password sends in ALTER ROLE ... PASSWORD.
func ParseVerifier(s string) (Verifier, error) {
	bad := errors.New("not a SCRAM-SHA-256 verifier")
	rest, ok := strings.CutPrefix(s, verifierPrefix)
	if !ok {
		return Verifier{}, bad
	}
	params, keys, ok := strings.Cut(rest, "$")
	if !ok {
		return Verifier{}, bad
	}
	iters, salt64, ok1 := strings.Cut(params, ":")
	stored64, server64, ok2 := strings.Cut(keys, ":")
	if !ok1 || !ok2 {
		return Verifier{}, bad
	}
	n, err := strconv.Atoi(iters)
	if err != nil || n <= 0 {
		return Verifier{}, bad
	}
	dec := base64.StdEncoding.DecodeString
	salt, err1 := dec(salt64)
	stored, err2 := dec(stored64)
	server, err3 := dec(server64)
	if err1 != nil || err2 != nil || err3 != nil || len(salt) == 0 || len(stored) != sha256.Size || len(server) != sha256.Size {
		return Verifier{}, bad
	}
	return Verifier{Iterations: n, Salt: salt, StoredKey: stored, ServerKey: server}, nil
}

// IsVerifier reports whether s is a SCRAM-SHA-256 verifier rather than a
// password.
func IsVerifier(s string) bool {
	_, err := ParseVerifier(s)
	return err == nil
}

// Check reports whether password matches v. It is for bootstrap users
// configured with their password, never for clients, which prove they
// know it without sending it.
func (v Verifier) Check(password string) bool {
	w, err := deriveVerifier(password, v.Salt, v.Iterations)
	return err == nil && hmac.Equal(w.StoredKey, v.StoredKey) && hmac.Equal(w.ServerKey, v.ServerKey)
}

// ChannelBinding is the tls-server-end-point binding data of the server's
// certificate (RFC 5929: its hash under the certificate's signature hash,
// SHA-256 for MD5 and SHA-1), or nil when it cannot be computed; then only
// SCRAM-SHA-256 without channel binding is offered.
func ChannelBinding(cert *tls.Certificate) []byte {
	if cert == nil || len(cert.Certificate) == 0 {
		return nil
	}
	leaf := cert.Leaf
	if leaf == nil {
		var err error
		if leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
			return nil
		}
	}
	// The library computes the binding from the certificate a client sees;
	// the server's own certificate is the one the client sees.
	cb, err := scram.NewTLSServerEndpointBinding(&tls.ConnectionState{PeerCertificates: []*x509.Certificate{leaf}})
	if err != nil {
		return nil
	}
	return cb.Data
}

// Mechanisms returns the SASL mechanisms to offer: SCRAM-SHA-256-PLUS first
// when the connection has channel binding data (it is encrypted), as
// PostgreSQL does.
func Mechanisms(channelBinding []byte) []string {
	if channelBinding != nil {
		return []string{MechanismSCRAMPlus, MechanismSCRAM}
	}
	return []string{MechanismSCRAM}
}

// Errors of an exchange. ErrMalformed is a client message that is not SCRAM
// (a protocol violation); ErrFailed is a wrong password, an unknown user or
// a channel binding that does not match (the client is refused).
var (
	ErrMalformed = errors.New("malformed SCRAM message")
	ErrFailed    = errors.New("SCRAM authentication failed")
)

// Exchange is the server side of one SCRAM-SHA-256 authentication.
type Exchange struct {
	conv  *scram.ServerConversation
	known bool
}

// NewExchange starts an exchange for the mechanism the client chose, which
// must be one Mechanisms offered. v is the role's verifier; known is false
// when the role does not exist or has no password, and then the exchange
// runs to its end with a mock verifier (mockSalt from MockSalt) and fails
// there, so that a client cannot tell unknown users from wrong passwords.
func NewExchange(mechanism string, v Verifier, known bool, channelBinding []byte) (*Exchange, error) {
	if !known {
		v = Verifier{Iterations: DefaultIterations, Salt: v.Salt, StoredKey: make([]byte, sha256.Size), ServerKey: make([]byte, sha256.Size)}
	}
	creds := scram.StoredCredentials{
		KeyFactors: scram.KeyFactors{Salt: string(v.Salt), Iters: v.Iterations},
		StoredKey:  v.StoredKey,
		ServerKey:  v.ServerKey,
	}
	// The user name inside the SCRAM messages is ignored (libpq sends an
	// empty one); the role is the startup message's user.
	server, err := scram.SHA256.NewServer(func(string) (scram.StoredCredentials, error) { return creds, nil })
	if err != nil {
		return nil, err
	}
	var conv *scram.ServerConversation
	switch {
	case mechanism == MechanismSCRAMPlus && channelBinding != nil:
		conv = server.NewConversationWithChannelBindingRequired(scram.ChannelBinding{Type: scram.ChannelBindingTLSServerEndpoint, Data: channelBinding})
	case mechanism == MechanismSCRAM && channelBinding != nil:
		// PLUS was offered: a client that could bind but says the server
		// cannot ('y') is being downgraded, and the library refuses it.
		conv = server.NewConversationWithChannelBinding(scram.ChannelBinding{Type: scram.ChannelBindingTLSServerEndpoint, Data: channelBinding})
	case mechanism == MechanismSCRAM:
		conv = server.NewConversation()
	default:
		return nil, fmt.Errorf("%w: unsupported mechanism", ErrMalformed)
	}
	return &Exchange{conv: conv, known: known}, nil
}

// Step consumes a client message and returns the server's answer. After
// the client's final message it returns the server-final message when the
// proof was right; done is then true.
func (e *Exchange) Step(msg []byte) (resp []byte, done bool, err error) {
	out, err := e.conv.Step(string(msg))
	if err != nil {
		if out == "" {
			// The library answers "" when the message does not parse
			// and a SCRAM error attribute ("e=...") when it refuses it.
			return nil, false, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		return nil, false, ErrFailed
	}
	if !e.conv.Done() {
		return []byte(out), false, nil
	}
	if !e.conv.Valid() || !e.known {
		return nil, false, ErrFailed
	}
	return []byte(out), true, nil
}

// MockSalt returns the salt shown for a user that does not exist or has no
// password: the same for a user on every attempt (derived from key, a
// server secret, and the name), so that it looks like a real one.
func MockSalt(key []byte, user string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(user))
	return m.Sum(nil)[:saltLen]
}
