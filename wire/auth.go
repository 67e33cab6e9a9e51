package wire

import (
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/auth"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// authenticate authenticates the connecting role by the server's method
// and returns it. Whatever the method, a role that exists without LOGIN is
// refused once authenticated, and a name that is no role is refused
// (under trust at once, 28000; under a password method after the mock
// exchange, as a wrong password), as in PostgreSQL.
func (c *conn) authenticate(database string) (Role, error) {
	role, err := c.lookupRole()
	if err != nil {
		pe := toPgError(err)
		if pe.Code == pgerr.InternalError {
			c.log.Error("looking up a role", "err", err)
		}
		return Role{}, c.fatalError(pe)
	}
	method := HBATrust
	if c.srv.cfg.Auth == AuthSCRAM {
		method = HBASCRAM
	}
	if hba := c.srv.cfg.HBA; hba != nil {
		// The first rule for the connection's kind, address, database
		// and user decides, as pg_hba.conf's.
		addr := tcpAddrPort(c.raw.RemoteAddr())
		host, encryption := "[local]", "no encryption"
		if addr.IsValid() {
			host = addr.Addr().Unmap().String()
		}
		if c.encrypted {
			encryption = "SSL encryption"
		}
		rule := hba.match(hbaConn{local: !addr.IsValid(), ssl: c.encrypted, addr: addr.Addr(), database: database, user: c.user, groups: role.Groups})
		switch {
		case rule == nil:
			return Role{}, c.fatal(pgerr.InvalidAuthorizationSpecification, "no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", %s", host, c.user, database, encryption)
		case rule.Method == HBAReject:
			return Role{}, c.fatal(pgerr.InvalidAuthorizationSpecification, "pg_hba.conf rejects connection for host \"%s\", user \"%s\", database \"%s\", %s", host, c.user, database, encryption)
		}
		method = rule.Method
	}
	switch method {
	case HBASCRAM:
		if err := c.scram(role); err != nil {
			return Role{}, err
		}
	case HBAPassword:
		if err := c.cleartextPassword(role); err != nil {
			return Role{}, err
		}
	}
	if !role.Exists {
		return Role{}, c.fatal(pgerr.InvalidAuthorizationSpecification, "role \"%s\" does not exist", c.user)
	}
	if !role.Login {
		return Role{}, c.fatal(pgerr.InvalidAuthorizationSpecification, "role \"%s\" is not permitted to log in", c.user)
	}
	return role, nil
}

// scram runs a SCRAM-SHA-256 exchange (SCRAM-SHA-256-PLUS over TLS when the
// certificate allows channel binding). A role that does not exist or has
// no password goes through the whole exchange with a mock verifier and
// fails at its end, so that a client cannot tell it from a wrong password.
func (c *conn) scram(role Role) error {
	failed := func() error {
		return c.fatal(pgerr.InvalidPassword, "password authentication failed for user \"%s\"", c.user)
	}
	var cb []byte
	if c.encrypted {
		cb = c.srv.channelBinding
	}
	mechanisms := auth.Mechanisms(cb)
	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: mechanisms})
	if err := c.flush(); err != nil {
		return errQuietClose
	}
	var initial pgproto3.SASLInitialResponse
	if err := c.readPasswordMessage(&initial); err != nil {
		return err
	}
	if !slices.Contains(mechanisms, initial.AuthMechanism) {
		return c.fatal(pgerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	v, known := auth.Verifier{}, false
	if role.Exists && role.Verifier != "" {
		var err error
		if v, err = auth.ParseVerifier(role.Verifier); err != nil {
			c.log.Error("a role's stored verifier does not parse", "role", c.user)
		} else {
			known = true
		}
	}
	if !known {
		v.Salt = auth.MockSalt(c.srv.mockKey[:], c.user)
	}
	ex, err := auth.NewExchange(initial.AuthMechanism, v, known, cb)
	if err != nil {
		return c.fatal(pgerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	msg := initial.Data
	for {
		resp, done, err := ex.Step(msg)
		switch {
		case errors.Is(err, auth.ErrMalformed):
			return c.fatal(pgerr.ProtocolViolation, "malformed SCRAM message")
		case err != nil:
			return failed()
		case done:
			c.send(&pgproto3.AuthenticationSASLFinal{Data: resp})
			return nil
		}
		c.send(&pgproto3.AuthenticationSASLContinue{Data: resp})
		if err := c.flush(); err != nil {
			return errQuietClose
		}
		var next pgproto3.SASLResponse
		if err := c.readPasswordMessage(&next); err != nil {
			return err
		}
		msg = next.Data
	}
}

// cleartextPassword asks for the password in clear text (the HBA method
// password) and checks it against the role's verifier; a role that does
// not exist or has no password fails as a wrong password does.
func (c *conn) cleartextPassword(role Role) error {
	c.send(&pgproto3.AuthenticationCleartextPassword{})
	if err := c.flush(); err != nil {
		return errQuietClose
	}
	var msg pgproto3.PasswordMessage
	if err := c.readPasswordMessage(&msg); err != nil {
		return err
	}
	if role.Exists && role.Verifier != "" {
		if v, err := auth.ParseVerifier(role.Verifier); err == nil && v.Check(msg.Password) {
			return nil
		}
	}
	return c.fatal(pgerr.InvalidPassword, "password authentication failed for user \"%s\"", c.user)
}

// readPasswordMessage reads the client's next 'p' message (its length
// bounded by maxAuthMessage) into m.
func (c *conn) readPasswordMessage(m interface{ Decode([]byte) error }) error {
	t, body, err := c.rd.next()
	if err != nil {
		var tooBig *messageTooLargeError
		var framing *framingError
		switch {
		case errors.As(err, &tooBig):
			return c.fatal(pgerr.ProtocolViolation, "%s", tooBig.Error())
		case errors.As(err, &framing):
			return c.fatalError(framing.err)
		}
		// psql hangs up here to ask its user for the password.
		return fmt.Errorf("%w: reading the password: %v", errQuietClose, err)
	}
	if t != 'p' {
		return c.fatal(pgerr.ProtocolViolation, "expected SASL response, got message type %d", t)
	}
	if !decodes(m, body) {
		return c.fatal(pgerr.ProtocolViolation, "malformed SASL message")
	}
	return nil
}
